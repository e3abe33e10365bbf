/**
 * Removal of ANSI terminal escape sequences from kernel output and from the
 * descriptor's recorded tracebacks (both coloured by IPython): the one
 * `stripAnsi` of the project. Pure string code.
 */

/**
 * Remove ANSI escape sequences (colours, cursor moves, hyperlinks) from a string.
 */
export function stripAnsi(s: string): string {
  return s.replace(Private.ANSI, '');
}

/**
 * Helpers that are not part of the public API.
 */
namespace Private {
  /**
   * OSC sequences (e.g. hyperlinks, up to BEL or ST, or cut short), CSI
   * sequences (`ESC [ params final`, IPython's colours, or the C1 byte) and
   * the remaining two-byte escapes.
   */
  export const ANSI =
    // eslint-disable-next-line no-control-regex
    /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|(?:\u001b\[|\u009b\[?)[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;
}
