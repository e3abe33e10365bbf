/**
 * Reading a live kernel's input history (IPython), for recording a new case.
 */
import type { Kernel } from '@jupyterlab/services';

import { INPUT_HISTORY_EXPRESSION } from './snippets';

/** The input history of a kernel's current session. */
export interface IInputHistory {
  /** `history[n]` is the code run as input `n`; `history[0]` is unused. */
  history: string[];
  /** The kernel's next execution count. */
  count: number;
}

/**
 * Ask the kernel for its input history through `user_expressions` (silent,
 * not stored in the history itself); rejects with a sentence when the kernel
 * is not IPython or does not keep a history.
 */
export async function readInputHistory(
  kernel: Kernel.IKernelConnection,
  timeoutMs = 30000
): Promise<IInputHistory> {
  const future = kernel.requestExecute({
    code: '',
    silent: true,
    store_history: false,
    stop_on_error: false,
    user_expressions: { junobench: INPUT_HISTORY_EXPRESSION }
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The kernel did not answer within ${Math.round(timeoutMs / 1000)} s (is it busy?).`
          )
        ),
      timeoutMs
    );
  });
  try {
    const reply = await Promise.race([future.done, timeout]);
    const value =
      reply.content.status === 'ok'
        ? (reply.content.user_expressions?.junobench as
            | {
                status?: string;
                data?: Record<string, unknown>;
                evalue?: string;
              }
            | undefined)
        : undefined;
    const data =
      value?.status === 'ok' ? value.data?.['application/json'] : null;
    if (!Private.isHistory(data)) {
      throw new Error(
        `The kernel's input history could not be read (an IPython kernel is needed)${value?.evalue ? `: ${value.evalue}` : ''}.`
      );
    }
    return data;
  } finally {
    clearTimeout(timer);
  }
}

namespace Private {
  /**
   * Whether a JSON value is the history the expression returns.
   */
  export function isHistory(value: unknown): value is IInputHistory {
    if (value === null || typeof value !== 'object') {
      return false;
    }
    const { history, count } = value as Record<string, unknown>;
    return (
      Array.isArray(history) &&
      history.every(item => typeof item === 'string') &&
      typeof count === 'number'
    );
  }
}
