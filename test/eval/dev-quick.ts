import { loadSplit } from "./corpus.js";
import { printFigures, scoreCorpus } from "./score-corpus.js";
const f = await scoreCorpus(loadSplit("dev"));
printFigures("dev", f);
if (process.argv.includes("--misses")) console.log(f.misses.join("\n"));
