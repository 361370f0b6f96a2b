// Shared by the console's browser tests: waiting for a page to have rendered before interacting with it.

/**
 * Waits until the console has rendered the page of the current hash: `main` is no longer `aria-busy` and its page
 * was rendered for `location.hash` (a hash change starts a new render; the old page does not count).
 * Typing or clicking before this races the page's own loading (a list rendered above a form moves the form).
 */
export function pageRendered(page, timeout) {
  return page.waitForFunction(
    () => {
      const main = document.getElementById("main");
      return main !== null && !main.hasAttribute("aria-busy") && main.firstElementChild?.dataset.hash === location.hash;
    },
    { timeout },
  );
}
