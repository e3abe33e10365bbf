/**
 * The JunoBench container's library pins and the closest local pins.
 *
 * Generated from jupyterlab_junobench/pins.json by scripts/sync-pins.js: edit
 * the JSON, then run `node scripts/sync-pins.js`.
 */
import type { IPins } from './drift';

/** The benchmark pins (see docs/environment.md). */
export const BENCHMARK_PINS: IPins = {
  source: {
    repository: 'https://github.com/PELAB-LiU/JunoBench_construct',
    commit: '9f18ed141430f9f43c7c0e77f00b5d4a566f36e9',
    files: ['docker/Dockerfile', 'data/requirements.txt']
  },
  python: {
    pinned: '3.10',
    local: '3.11',
    reason:
      'The container is built FROM python:3.10-slim; this machine (and most current Linux distributions) has Python 3.11. Every local pin below has a wheel for CPython 3.11.'
  },
  libraries: [
    {
      name: 'numpy',
      pinned: '1.26.4',
      group: 'minimal'
    },
    {
      name: 'pandas',
      pinned: '2.1.4',
      group: 'minimal'
    },
    {
      name: 'scipy',
      pinned: '1.13.1',
      group: 'minimal'
    },
    {
      name: 'scikit-learn',
      pinned: '1.2.2',
      group: 'minimal'
    },
    {
      name: 'matplotlib',
      pinned: '3.7.1',
      group: 'minimal'
    },
    {
      name: 'seaborn',
      pinned: '0.12.2',
      group: 'minimal'
    },
    {
      name: 'statsmodels',
      pinned: '0.14.0',
      group: 'minimal'
    },
    {
      name: 'lightgbm',
      pinned: '4.6.0',
      group: 'minimal'
    },
    {
      name: 'pillow',
      pinned: '10.4.0',
      group: 'minimal'
    },
    {
      name: 'pytz',
      pinned: '2024.2',
      group: 'minimal'
    },
    {
      name: 'ipython',
      pinned: '7.34.0',
      group: 'minimal'
    },
    {
      name: 'tensorflow',
      pinned: '2.17.0',
      group: 'full',
      distributions: ['tensorflow', 'tensorflow-cpu', 'tensorflow-intel'],
      local: {
        requirement: 'tensorflow-cpu==2.17.0',
        version: '2.17.0',
        reason:
          'Same TensorFlow release, CPU-only build: the tensorflow wheel pulls CUDA libraries the benchmark never uses on a CPU.'
      }
    },
    {
      name: 'keras',
      pinned: '3.4.1',
      group: 'full'
    },
    {
      name: 'torch',
      pinned: '2.3.1',
      group: 'full',
      local: {
        requirement: 'torch==2.13.0',
        version: '2.13.0',
        reason:
          'torch 2.3.1 from PyPI is a CUDA build of several GB and the CPU build lives on download.pytorch.org, which this machine cannot reach; the CPU wheel of torch 2.13.0 for CPython 3.11 is on local disk (PIP_FIND_LINKS=/opt/wheels).'
      }
    },
    {
      name: 'torchvision',
      pinned: '0.18.1',
      group: 'full',
      local: {
        requirement: null,
        version: null,
        reason:
          "No torchvision build matches the local CPU torch 2.13.0: PyPI's torchvision 0.28 is built against the CUDA torch and fails to import beside the CPU wheel ('operator torchvision::nms does not exist'). Cases that import torchvision cannot run in this kernel."
      }
    },
    {
      name: 'xgboost',
      pinned: '2.0.3',
      group: 'full'
    },
    {
      name: 'catboost',
      pinned: '1.2.7',
      group: 'full'
    },
    {
      name: 'plotly',
      pinned: '5.24.1',
      group: 'full'
    },
    {
      name: 'tqdm',
      pinned: '4.66.5',
      group: 'full'
    },
    {
      name: 'albumentations',
      pinned: '1.4.15',
      group: 'other'
    },
    {
      name: 'category-encoders',
      pinned: '2.6.4',
      group: 'other'
    },
    {
      name: 'chart-studio',
      pinned: '1.1.0',
      group: 'other'
    },
    {
      name: 'datasets',
      pinned: '3.1.0',
      group: 'other'
    },
    {
      name: 'deap',
      pinned: '1.4.1',
      group: 'other'
    },
    {
      name: 'eli5',
      pinned: '0.13.0',
      group: 'other'
    },
    {
      name: 'emoji',
      pinned: '2.14.0',
      group: 'other'
    },
    {
      name: 'fasttext',
      pinned: '0.9.3',
      group: 'other'
    },
    {
      name: 'gensim',
      pinned: '4.3.3',
      group: 'other'
    },
    {
      name: 'google',
      pinned: '2.0.3',
      group: 'other'
    },
    {
      name: 'holoviews',
      pinned: '1.19.1',
      group: 'other'
    },
    {
      name: 'hyperopt',
      pinned: '0.2.7',
      group: 'other'
    },
    {
      name: 'idx2numpy',
      pinned: '1.2.3',
      group: 'other'
    },
    {
      name: 'imageio',
      pinned: '2.35.1',
      group: 'other'
    },
    {
      name: 'imbalanced-learn',
      pinned: '0.12.3',
      group: 'other'
    },
    {
      name: 'keras-tuner',
      pinned: '1.4.7',
      group: 'other'
    },
    {
      name: 'librosa',
      pinned: '0.10.2.post1',
      group: 'other'
    },
    {
      name: 'missingno',
      pinned: '0.5.2',
      group: 'other'
    },
    {
      name: 'mlxtend',
      pinned: '0.23.1',
      group: 'other'
    },
    {
      name: 'nltk',
      pinned: '3.2.4',
      group: 'other'
    },
    {
      name: 'opencv-python',
      pinned: '4.10.0.84',
      group: 'other'
    },
    {
      name: 'optuna',
      pinned: '4.1.0',
      group: 'other'
    },
    {
      name: 'pandas-profiling',
      pinned: '3.6.6',
      group: 'other'
    },
    {
      name: 'pathlib',
      pinned: '1.0.1',
      group: 'other'
    },
    {
      name: 'preprocessing',
      pinned: '0.1.13',
      group: 'other'
    },
    {
      name: 'pyarrow',
      pinned: '18.1.0',
      group: 'other'
    },
    {
      name: 'qiskit',
      pinned: '1.4.2',
      group: 'other'
    },
    {
      name: 'qiskit-algorithms',
      pinned: '0.3.1',
      group: 'other'
    },
    {
      name: 'qiskit-machine-learning',
      pinned: '0.8.2',
      group: 'other'
    },
    {
      name: 'requests',
      pinned: '2.32.3',
      group: 'other'
    },
    {
      name: 'scikit-image',
      pinned: '0.24.0',
      group: 'other'
    },
    {
      name: 'shap',
      pinned: '0.44.1',
      group: 'other'
    },
    {
      name: 'six',
      pinned: '1.16.0',
      group: 'other'
    },
    {
      name: 'sklearn-pandas',
      pinned: '2.2.0',
      group: 'other'
    },
    {
      name: 'spacy',
      pinned: '3.7.6',
      group: 'other'
    },
    {
      name: 'tensorflow-hub',
      pinned: '0.16.1',
      group: 'other'
    },
    {
      name: 'tensorflow-decision-forests',
      pinned: '1.10.0',
      group: 'other'
    },
    {
      name: 'textblob',
      pinned: '0.17.1',
      group: 'other'
    },
    {
      name: 'timm',
      pinned: '1.0.12',
      group: 'other'
    },
    {
      name: 'torchmetrics',
      pinned: '1.6.0',
      group: 'other'
    },
    {
      name: 'transformers',
      pinned: '4.44.2',
      group: 'other'
    },
    {
      name: 'wordcloud',
      pinned: '1.9.3',
      group: 'other'
    },
    {
      name: 'yellowbrick',
      pinned: '1.5',
      group: 'other'
    }
  ]
};
