// Types of examples/browser/build.mjs.
export function buildDemo(out?: string): Promise<string>;
export function serveDir(dir: string, port: number): Promise<import('node:http').Server>;
