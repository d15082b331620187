/**
 * node:util parseArgs reads `--lon -3.7` as an option `--lon` missing its value followed by an
 * option `-3`, and refuses it as ambiguous. Every depot west of Greenwich or south of the equator
 * has a negative coordinate, so: a negative number after an option that takes a value is that
 * option's value (`--lon=-3.7`). Anything else is left for parseArgs to judge.
 */
const NEGATIVE_NUMBER = /^-(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})$/;

export function withNegativeValues(argv: readonly string[], options: Record<string, { type: 'string' | 'boolean' }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const next = argv[i + 1];
    const name = token.startsWith('--') && !token.includes('=') ? token.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && next.length <= 64 && NEGATIVE_NUMBER.test(next)) {
      out.push(`${token}=${next}`);
      i++;
    } else {
      out.push(token);
    }
  }
  return out;
}
