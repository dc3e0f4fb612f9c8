#!/usr/bin/env node
import { runCli } from "./program.js";

// Entry of both `npm run callreview` and the compiled executable.
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
