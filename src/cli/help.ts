/**
 * `junobench <command> --help`: the part of the usage text about one command. Pure.
 */

/**
 * The usage blocks of `command` (a block is a `  junobench <command> ...` line
 * and the more indented lines under it) and the notes after the blocks, or
 * null when the usage has no block for it.
 */
export function commandHelp(usage: string, command: string): string | null {
  const lines = usage.split('\n');
  const picked: string[] = [];
  let inBlock = false;
  let notes = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const start = /^ {2}junobench (\S+)/.exec(line);
    if (start) {
      inBlock = start[1] === command;
    } else if (!/^ {3,}\S/.test(line)) {
      inBlock = false;
      if (line.trim() === '' && picked.length) {
        notes = Math.min(notes, i);
      }
    }
    if (inBlock) {
      picked.push(line);
    }
  }
  if (!picked.length) {
    return null;
  }
  const tail = lines.slice(notes).join('\n').trimEnd();
  return ['Usage:', ...picked].join('\n') + (tail ? `\n${tail}` : '');
}
