// vitest for the conformance suite only (./conformance.vitest.mjs); see ./conformance.mjs.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["conformance.vitest.mjs"],
    // The suite's own tests set no timeout: vitest's 5 s applies, as upstream runs it.
    watch: false,
  },
});
