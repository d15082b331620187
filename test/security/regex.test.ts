/**
 * Every regular expression in src/ is checked by a ReDoS analyser (recheck): none may backtrack
 * super-linearly on a long near-match. Literals and `new RegExp('literal')` are found with the
 * TypeScript parser, so a regex in a string, a comment or a template cannot hide or be miscounted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

interface Found {
  where: string;
  source: string;
  flags: string;
}

/** The regex literals and `new RegExp`/`RegExp` calls with literal arguments of one file. */
export function regexesOf(file: string, text: string): Found[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    const where = `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if (ts.isRegularExpressionLiteral(node)) {
      const t = node.text;
      const end = t.lastIndexOf('/');
      found.push({ where, source: t.slice(1, end), flags: t.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const [pattern, flags] = node.arguments ?? [];
      if (pattern && ts.isStringLiteralLike(pattern)) {
        found.push({ where, source: pattern.text, flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '' });
      } else if (pattern) {
        found.push({ where, source: '<dynamic>', flags: '' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('regular expressions in src/', () => {
  const all = sourceFiles(join(root, 'src')).flatMap((file) => regexesOf(file, readFileSync(file, 'utf8')));

  it('finds the literals (the scan itself works)', () => {
    expect(all.length).toBeGreaterThan(10);
    const probe = regexesOf('x.ts', "const a = /^(a+)+$/u; const b = new RegExp('x*y', 'i'); const s = '/not/';");
    expect(probe.map((r) => [r.source, r.flags])).toEqual([['^(a+)+$', 'u'], ['x*y', 'i']]);
  });

  it('builds no regex from a run-time string', () => {
    expect(all.filter((r) => r.source === '<dynamic>').map((r) => r.where)).toEqual([]);
  });

  it('the checker flags a known super-linear pattern (the old positions number regex)', async () => {
    const result = await check('^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)\\s*$', '');
    expect(result.status).toBe('vulnerable');
  });

  it('has no regex that can backtrack super-linearly', async () => {
    const vulnerable: string[] = [];
    for (const r of all) {
      const result = await check(r.source, r.flags, { timeout: 10_000 });
      if (result.status !== 'safe') vulnerable.push(`${r.where} /${r.source}/${r.flags}: ${result.status}${result.status === 'vulnerable' ? ` (${result.complexity.summary})` : ''}`);
    }
    expect(vulnerable).toEqual([]);
  }, 120_000);
});
