/**
 * What the dispatcher page's browser tests share: the demo address book as points, the artifacts
 * folder, and headless Chromium launched as this machine allows (a persistent profile, no network
 * of its own, a dispatcher's locale and zone in Berlin).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM } from '../helpers/environment.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const artifacts = join(root, 'test-artifacts');

/** data/demo/addresses.csv: address and coordinates as strings. */
export const BOOK = readFileSync(join(root, 'data/demo/addresses.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const m = /^"(.*)",([-\d.]+),([-\d.]+)$/.exec(line)!;
    return { address: m[1]!, lat: m[2]!, lon: m[3]! };
  });

export function launchPage(profile: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    // a dispatcher in Berlin, the company's zone: planned times read as the drivers see them
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
