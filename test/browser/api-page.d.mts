// Types of test/browser/api-page.mjs (the part the Node side calls).
export function positionsOf(api: object, fens: string[]): unknown[];
