import type { Command } from "commander";

/**
 * Examples shown under each command's help, keyed by the command's path.
 * Every command has some (test/cli/manners.test.ts checks it); they use the
 * installed name and pipe cleanly.
 */
export const EXAMPLES: Record<string, string[]> = {
  callreview: ['callreview company create "Acme Sales" --json', "callreview doctor", "callreview serve --port 8080"],
  serve: ["callreview serve", "callreview serve --port 9000 --pipeline live --workers 2", "CALLREVIEW_DATA_DIR=/srv/callreview callreview serve"],
  worker: [
    "callreview worker --database-url postgres://callreview@db/callreview --workers 2",
    "CALLREVIEW_DATABASE_URL=postgres://callreview@db/callreview callreview worker",
  ],
  migrate: ["callreview migrate", "callreview migrate --database-url postgres://callreview@db/callreview --json"],
  "copy-data": [
    "callreview copy-data --from ./data --to postgres://callreview@db/callreview",
    "callreview copy-data --from /srv/callreview --to postgres://callreview@db/callreview --json",
  ],
  company: ["callreview company list", 'callreview company create "Acme Sales"'],
  "company create": ['callreview company create "Acme Sales"', 'callreview company create "Acme Sales" --low-score-threshold 50 --json'],
  "company list": ["callreview company list", "callreview company list --json"],
  "company update": [
    'callreview company update 1 --name "Acme EMEA"',
    "callreview company update 1 --rep-channel right --retain-audio-days 90",
    "callreview company update 1 --trackers trackers.json",
  ],
  key: ["callreview key create --company 1", "callreview key list --company 1"],
  "key create": ["callreview key create --company 1", "callreview key create --company 1 --scopes calls:read,reports:read --expires-at 2026-12-31 --json"],
  "key list": ["callreview key list --company 1", "callreview key list --company 1 --json"],
  user: ["callreview user create --company 1 --email rita@example.com --role reviewer", "callreview user list --company 1"],
  "user create": [
    "callreview user create --company 1 --email rita@example.com --role reviewer",
    "printf '%s\\n' \"$PASSWORD\" | callreview user create --company 1 --email max@example.com --role manager --password-stdin --json",
  ],
  "user list": ["callreview user list", "callreview user list --company 1 --json"],
  "user disable": ["callreview user disable 3", "callreview user disable 3 --yes --json"],
  "user reset-password": ["callreview user reset-password 3", "printf '%s\\n' \"$PASSWORD\" | callreview user reset-password 3 --password-stdin"],
  "key revoke": ["callreview key revoke 3f9c2a1b", "callreview key revoke 3f9c2a1b --yes --json"],
  doctor: ["callreview doctor", "callreview doctor --json", "callreview doctor --pipeline live --models-dir /opt/models"],
  models: ["callreview models list", "callreview models verify"],
  "models list": ["callreview models list", "callreview --models-dir /opt/models models list --json"],
  "models verify": ["callreview models verify", "callreview models verify --json"],
  submit: [
    "callreview submit call.wav --company 1",
    "callreview submit a.wav b.mp3 --company 1 --wait --json",
    "callreview submit --transcript call.vtt --rep-speaker Anna --company 1 --wait",
  ],
  transcribe: [
    "callreview transcribe call.wav",
    "callreview transcribe call.mp3 --format vtt > call.vtt",
    "callreview transcribe call.wav --format json --model ggml-base.en.bin | jq '.segments | length'",
  ],
  calls: ["callreview calls list", "callreview calls show 42"],
  "calls list": ["callreview calls list --company 1 --status failed", "callreview calls list --limit 100 --json"],
  "calls show": ["callreview calls show 42", "callreview calls show 42 --transcript --json"],
  "calls delete": ["callreview calls delete 42", "callreview calls delete 42 --yes --json"],
  "calls purge": ["callreview calls purge --company 1 --before 2025-01-01 --dry-run", "callreview calls purge --company 1 --before 2025-01-01 --yes"],
  audit: ["callreview audit list --company 1"],
  "audit list": ["callreview audit list --company 1 --since 2025-06-01", "callreview audit list --call 42 --json"],
  backup: ["callreview backup /backups/callreview-2025-06-30", "callreview backup /backups/nightly --json"],
  restore: ["callreview --data-dir ./data-new restore /backups/nightly", "callreview restore /backups/nightly --force --yes"],
  retention: ["callreview retention run"],
  "retention run": ["callreview retention run", "callreview retention run --json"],
  report: ["callreview report 42", "callreview report 42 --json"],
  webhook: ["callreview webhook add --company 1 --url https://crm.local/hooks", "callreview webhook list"],
  "webhook add": [
    "callreview webhook add --company 1 --url https://crm.local/hooks",
    "callreview webhook add --company 1 --url https://crm.local/hooks --events call.report_completed,call.failed --json",
  ],
  "webhook list": ["callreview webhook list", "callreview webhook list --company 1 --json"],
  "webhook remove": ["callreview webhook remove 2", "callreview webhook remove 2 --yes --json"],
  "webhook rotate-secret": ["callreview webhook rotate-secret 2", "callreview webhook rotate-secret 2 --json"],
  "webhook enable": ["callreview webhook enable 2"],
  "webhook disable": ["callreview webhook disable 2 --json"],
  "webhook test": ["callreview webhook test 2", "callreview webhook test 2 --json"],
  deliveries: ["callreview deliveries list --status failed", "callreview deliveries replay --failed --since 36h"],
  "deliveries list": ["callreview deliveries list --company 1 --status failed", "callreview deliveries list --limit 200 --json"],
  "deliveries show": ["callreview deliveries show 17", "callreview deliveries show 17 --json"],
  "deliveries replay": ["callreview deliveries replay 17", "callreview deliveries replay --failed --since 36h --company 1"],
  analyze: ["callreview analyze call.vtt --rep-speaker Anna", "callreview analyze call.json --company 1 --analyzer rules --json"],
  trackers: ['callreview trackers test builtin --text "we already use a competitor" --speaker customer'],
  "trackers test": [
    'callreview trackers test builtin --text "can you send me the contract" --speaker customer',
    "callreview trackers test trackers.json --transcript call.vtt --rep-speaker Anna --json",
  ],
  "engine-bench": [
    "callreview engine-bench --llm-model models/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    "callreview engine-bench --llm-model model.gguf --pp 256 --tg 64 --reps 5 --json",
  ],
};

export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.length > 1 ? names.slice(1).join(" ") : names[0];
}

/** Adds the examples of a command to the end of its help, once. */
export function addExamples(cmd: Command): void {
  const lines = EXAMPLES[commandPath(cmd)];
  if (lines) cmd.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}`);
  if (!cmd.parent)
    cmd.addHelpText("after", "\nExit codes: 0 success, 1 failure, 2 usage (unknown or bad option, destructive command without --yes), 3 not found.");
}
