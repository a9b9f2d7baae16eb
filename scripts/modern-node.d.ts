// Types of modern-node.js, for the TypeScript that imports it (the benches and tests); the file itself
// stays plain JavaScript, as the entry and `npm install` run it before anything is compiled.
export const OLDEST_MAJOR: number;
export function thisNodeCanRun(): boolean;
export function modernNode(): string | undefined;
export function fetchModernNode(): void;
export function runtimeSettings(entry?: string): { env: Record<string, string>; flags: string[] };
export function runOn(node: string, nodeArgs: string[], file: string, args: string[], env?: NodeJS.ProcessEnv): void;
