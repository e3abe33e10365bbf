/**
 * Libraries derived from case names.
 */

import { LIBRARIES, LIBRARY_LABELS, libraryOf } from '../../src/casebook';

describe('libraryOf', () => {
  it.each([
    ['NBspecific_1', 'NBspecific'],
    ['NBspecific_20', 'NBspecific'],
    ['tensorflow_15', 'tensorflow'],
    ['torch_3', 'torch'],
    ['torchvision_1', 'torchvision'],
    ['sklearn_3', 'sklearn'],
    ['numpy_12', 'numpy'],
    ['pandas_3', 'pandas'],
    ['matplotlib_6', 'matplotlib'],
    ['seaborn_2', 'seaborn'],
    ['statsmodels_1', 'statsmodels'],
    ['lightgbm_1', 'lightgbm'],
    ['nbspecific_4', 'NBspecific'],
    ['keras_1', 'unknown'],
    ['pandas', 'unknown'],
    ['pandas_x', 'unknown'],
    ['pandas_3_reproduced', 'unknown'],
    ['', 'unknown']
  ])('%j belongs to %s', (name, library) => {
    expect(libraryOf(name)).toBe(library);
  });
});

describe('LIBRARY_LABELS', () => {
  it.each([
    ['NBspecific', 'Notebook-specific'],
    ['tensorflow', 'TensorFlow/Keras'],
    ['torch', 'PyTorch'],
    ['sklearn', 'scikit-learn']
  ] as const)('labels %s as %s', (library, label) => {
    expect(LIBRARY_LABELS[library]).toBe(label);
  });

  it('labels every library', () => {
    for (const library of LIBRARIES) {
      expect(LIBRARY_LABELS[library]).toEqual(expect.any(String));
    }
  });
});
