// JSON allows an object to name a key twice and JSON.parse silently keeps the last one, so `{"type":"cashin",
// "type":"cashout"}` would be judged on a value the client may not have meant (docs/decisions/requests.md). Bodies naming a key
// twice are refused instead, naming the key; the scan is one pass over the text, before it is parsed.

/** The path (`body.payer.name`) of the first key an object of `text` names twice; undefined if none (or not JSON). */
export function duplicateKeyOf(text: string): string | undefined {
  // One frame per open object or array: the keys seen so far (objects) and the path down to it.
  const frames: { keys?: Set<string>; path: string; index: number }[] = [];
  let pendingKey: string | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = endOfString(text, i);
      if (end < 0) return undefined; // not JSON: the parser says so
      const frame = frames[frames.length - 1];
      // A string in an object where a key is expected (followed by a colon) is a key.
      if (frame?.keys && nextNonSpace(text, end + 1) === ':') {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          return undefined;
        }
        if (frame.keys.has(key)) return `${frame.path}.${key}`;
        frame.keys.add(key);
        pendingKey = key;
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      const parent = frames[frames.length - 1];
      const path = parent === undefined ? 'body' : parent.keys ? `${parent.path}.${pendingKey}` : `${parent.path}[${parent.index}]`;
      frames.push(c === '{' ? { keys: new Set(), path, index: 0 } : { path, index: 0 });
    } else if (c === '}' || c === ']') {
      frames.pop();
    } else if (c === ',') {
      const frame = frames[frames.length - 1];
      if (frame && !frame.keys) frame.index++;
    }
    i++;
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start`, or -1. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function nextNonSpace(text: string, from: number): string | undefined {
  for (let i = from; i < text.length; i++) if (!' \t\n\r'.includes(text[i])) return text[i];
  return undefined;
}
