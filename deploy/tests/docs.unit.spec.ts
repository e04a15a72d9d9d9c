import * as fs from 'node:fs';
import * as path from 'node:path';

// README.md and docs/ as a reader meets them: every relative link leads somewhere (a file, and a heading of it when
// the link names one), the README stays short, every example runs on any day, and no page narrates the work that
// produced it (git log does).

const ROOT = path.resolve(__dirname, '..', '..');

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
function documents(): string[] {
  const found = ['README.md'];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.md')) found.push(file);
    }
  };
  visit('docs');
  return found.sort();
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The text outside fenced code blocks and inline code, where links and prose are. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors of a Markdown file's headings, as GitHub makes them, and its explicit `<a id="...">` anchors. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of read(file)
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      const base = heading[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

/** Every relative link of a document: its target file (from the root) and the anchor it names, if any. */
function relativeLinks(file: string): { link: string; target: string; anchor?: string }[] {
  const links = [];
  for (const match of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
    const [target, anchor] = link.split('#');
    links.push({ link, target: target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target)), anchor });
  }
  return links;
}

describe('README.md and docs/', () => {
  const files = documents();

  it('has the pages the README links into', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'docs/api/README.md',
        'docs/decisions/README.md',
        'docs/operations.md',
        'docs/architecture.md',
        'docs/performance.md',
        'docs/testing.md',
        'docs/known-limits.md',
      ]),
    );
  });

  it.each(files)('%s: every relative link points to an existing file and heading', (file) => {
    const broken = relativeLinks(file).filter(({ target, anchor }) => {
      if (target.startsWith('..') || !fs.existsSync(path.join(ROOT, target))) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor);
    });
    expect(broken.map(({ link }) => link)).toEqual([]);
  });

  it('README.md is short, and keeps the sandbox quickstart the end-to-end suite runs', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(320);
    expect(readme.split('\n')).toContain('## Sandbox quickstart');
    expect(readme).toContain('npm install && npm test');
  });

  it.each(files)('%s: every example runs on any day (dates come from the shell, never written out)', (file) => {
    // A written-out date in a command stops working the day it passes; an answer (`# → ...`) may show one.
    const dated = [];
    for (const block of read(file).matchAll(/^```(?:sh|bash|ts|js)\n([\s\S]*?)^```/gm)) {
      for (const line of block[1].split('\n')) {
        const code = /^\s*(#|\/\/)/.test(line) ? '' : line.split(/ (?:#|\/\/) /)[0];
        if (/\d{4}-\d{2}-\d{2}/.test(code)) dated.push(line);
      }
    }
    expect(dated).toEqual([]);
  });

  it.each(files)('%s: no narration of the work (issue numbers, sessions)', (file) => {
    const text = read(file);
    expect(text.match(/#\d+/g) ?? []).toEqual([]);
    // PostgreSQL's sessions and PgBouncer's session mode are words of the product; "session 8" is a diary.
    expect(text.match(/\bsessions? \d+|\b(before|after|until|since) session\b/gi) ?? []).toEqual([]);
  });
});
