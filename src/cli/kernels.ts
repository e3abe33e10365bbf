/**
 * The kernel a headless command runs in: `--kernel` when given, else the
 * environment `--environment` asks for (default: the best the server has).
 */
import { KernelSpecAPI } from '@jupyterlab/services';
import type { KernelSpec, ServerConnection } from '@jupyterlab/services';

import {
  chooseEnvironment,
  ENVIRONMENT_PREFERENCES,
  isEnvironmentPreference
} from '../kernel/environment';
import type {
  EnvironmentPreference,
  IEnvironmentChoice
} from '../kernel/environment';

/** The `--environment` option of check, verify and explain. */
export const ENVIRONMENT_OPTION = {
  environment: { type: 'string', default: 'auto' }
} as const;

/** The usage line part of `--environment`. */
export const ENVIRONMENT_USAGE = `[--environment ${ENVIRONMENT_PREFERENCES.join('|')}]`;

/** A command's kernel and, when no `--kernel` was given, how it was chosen. */
export interface ICommandKernel {
  /** The kernelspec name. */
  kernel: string;
  /** The environment chooser's answer (null when `--kernel` named the kernel). */
  choice: IEnvironmentChoice | null;
}

/**
 * Read `--environment`; throws naming the accepted values.
 */
export function readEnvironmentOption(
  value: string | undefined
): EnvironmentPreference {
  const v = value ?? 'auto';
  if (!isEnvironmentPreference(v)) {
    throw new Error(
      `--environment must be one of ${ENVIRONMENT_PREFERENCES.join(', ')}, not "${v}"`
    );
  }
  return v;
}

/**
 * The kernel to run in: `kernel` when given, else the chosen environment's
 * kernelspec, the server's default kernelspec for its own Python (python3
 * when the server cannot list its kernelspecs).
 */
export async function commandKernel(
  settings: ServerConnection.ISettings,
  kernel?: string,
  preference: EnvironmentPreference = 'auto'
): Promise<ICommandKernel> {
  if (kernel) {
    return { kernel, choice: null };
  }
  let specs: KernelSpec.ISpecModels | null = null;
  try {
    specs = await KernelSpecAPI.getSpecs(settings);
  } catch {
    // An unlisted server still has its default kernel.
  }
  const choice = chooseEnvironment(specs, preference);
  return {
    kernel: choice.kernel ?? (specs?.default || 'python3'),
    choice
  };
}
