/**
 * The library a case belongs to, derived from its name prefix.
 */

import type { Library } from './types';

/**
 * The known libraries in the order the benchmark lists them (`unknown` last).
 */
export const LIBRARIES: readonly Library[] = [
  'NBspecific',
  'tensorflow',
  'torch',
  'torchvision',
  'sklearn',
  'numpy',
  'pandas',
  'matplotlib',
  'seaborn',
  'statsmodels',
  'lightgbm',
  'unknown'
];

/**
 * Human-readable label of each library.
 */
export const LIBRARY_LABELS: Readonly<Record<Library, string>> = {
  NBspecific: 'Notebook-specific',
  tensorflow: 'TensorFlow/Keras',
  torch: 'PyTorch',
  torchvision: 'torchvision',
  sklearn: 'scikit-learn',
  numpy: 'NumPy',
  pandas: 'pandas',
  matplotlib: 'Matplotlib',
  seaborn: 'seaborn',
  statsmodels: 'statsmodels',
  lightgbm: 'LightGBM',
  unknown: 'Other'
};

/**
 * The library of a case name such as `pandas_3`: the prefix before the last
 * `_<digits>`, matched case-insensitively; `unknown` otherwise.
 */
export function libraryOf(name: string): Library {
  const match = /^(.+)_\d+$/.exec(name.trim());
  if (!match) {
    return 'unknown';
  }
  return Private.BY_LOWER.get(match[1].toLowerCase()) ?? 'unknown';
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Libraries keyed by lower-case prefix.
   */
  export const BY_LOWER: ReadonlyMap<string, Library> = new Map(
    LIBRARIES.filter(library => library !== 'unknown').map(library => [
      library.toLowerCase(),
      library
    ])
  );
}
