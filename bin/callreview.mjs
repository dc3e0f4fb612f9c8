#!/usr/bin/env node
// `callreview` from a source checkout (npm link, npx callreview): the CLI is
// TypeScript, so it runs through tsx's loader. The product's real binary is
// the compiled dist/callreview (npm run build), which needs none of this.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
