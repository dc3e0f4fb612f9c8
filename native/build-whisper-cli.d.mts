export const whisperCli: string;
export const whisperVad: string;
export function buildWhisperCli(): { whisperCli: string; whisperVad: string };
