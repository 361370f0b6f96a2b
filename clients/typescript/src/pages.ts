// Paged lists as async iterators: each page's `nextAfter` is the next
// request's `after`, until it is null (catalog, processors, sources) or the
// page comes back empty (dead letters). A page that does not move `after`
// ends the iteration, so a misbehaving server cannot loop it forever.

/** Items of every page from `first(after)` on. */
export async function* paged<Page, Item, After>(
  fetchPage: (after: After | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
  nextOf: (page: Page) => After | null | undefined,
  start?: After,
): AsyncGenerator<Item, void, undefined> {
  let after = start;
  for (;;) {
    const page = await fetchPage(after);
    const items = itemsOf(page);
    yield* items;
    const next = nextOf(page);
    if (next === null || next === undefined || items.length === 0 || next === after) return;
    after = next;
  }
}
