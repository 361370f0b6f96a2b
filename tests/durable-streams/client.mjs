// The official Durable Streams TypeScript client as pinned in ./package.json (the root's
// node_modules holds another version, a dependency of @durable-streams/server).
export * from "@durable-streams/client";
