import * as fs from 'fs';
import * as path from 'path';

import { loadLocalCasebook } from '../../src/cli/verify';
import type { ICase } from '../../src/casebook/types';
import { hintLadder } from '../../src/repair/hints';
import {
  DIAGNOSIS_QUESTIONS,
  diagnosisChoices,
  hasAnswer,
  HINT_STEP_OF,
  normaliseLabel,
  scoreDiagnosis
} from '../../src/repair/selfDiagnosis';
import type { IPrediction } from '../../src/repair/selfDiagnosis';

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const SHARED = path.resolve(__dirname, '../../../shared/junobench');

const labels = {
  rootCause: 'API misuse',
  crashType: 'tensor shape mismatch',
  pipelineStage: 'model construction'
};

function predict(
  answers: Partial<Record<keyof typeof labels, string | null>>,
  hints: number[] = []
): Pick<IPrediction, keyof typeof labels | 'hints'> {
  return {
    rootCause: null,
    crashType: null,
    pipelineStage: null,
    ...answers,
    hints
  };
}

describe('scoreDiagnosis', () => {
  it.each<[string, ReturnType<typeof predict>, number, number, boolean[]]>([
    ['all right', predict(labels), 3, 0, [true, true, true]],
    [
      'all right, spelled loosely',
      predict({
        rootCause: ' api  MISUSE ',
        crashType: 'Tensor Shape Mismatch',
        pipelineStage: 'model construction\n'
      }),
      3,
      0,
      [true, true, true]
    ],
    [
      'one wrong',
      predict({ ...labels, crashType: 'value error' }),
      2,
      0,
      [true, false, true]
    ],
    [
      'not sure counts as wrong',
      predict({ rootCause: 'API misuse' }),
      1,
      0,
      [true, false, false]
    ],
    [
      'right after the crash-type hint earns no point',
      predict(labels, [HINT_STEP_OF.crashType]),
      2,
      1,
      [true, true, true]
    ],
    [
      'every hint open: nothing earns a point',
      predict(labels, [1, 2, 3, 4]),
      0,
      3,
      [true, true, true]
    ],
    [
      'the where-to-look hint gives no label away',
      predict(labels, [3]),
      3,
      0,
      [true, true, true]
    ],
    [
      'a wrong answer after its hint is wrong, not hinted',
      predict({ ...labels, pipelineStage: 'training' }, [1]),
      2,
      0,
      [true, true, false]
    ]
  ])('%s', (_label, prediction, correct, hinted, each) => {
    const score = scoreDiagnosis(labels, prediction);
    expect(score.correct).toBe(correct);
    expect(score.hinted).toBe(hinted);
    expect(score.total).toBe(3);
    expect(score.answers.map(a => a.correct)).toEqual(each);
    expect(score.answers.map(a => a.question)).toEqual(DIAGNOSIS_QUESTIONS);
  });

  it('leaves out questions the case has no label for', () => {
    const score = scoreDiagnosis(
      { ...labels, pipelineStage: '  ' },
      predict(labels)
    );
    expect(score.total).toBe(2);
    expect(score.correct).toBe(2);
    expect(score.answers.map(a => a.question)).toEqual([
      'rootCause',
      'crashType'
    ]);
  });

  it('reports the learner answer and the label for each question', () => {
    const score = scoreDiagnosis(
      labels,
      predict({ rootCause: 'data confusion' })
    );
    expect(score.answers[0]).toEqual({
      question: 'rootCause',
      predicted: 'data confusion',
      actual: 'API misuse',
      correct: false,
      hinted: false
    });
  });
});

describe('HINT_STEP_OF', () => {
  it('names the ladder step whose text gives each label away', async () => {
    const book = await loadLocalCasebook(DEMO);
    const c = book.cases.find(x => x.name === 'pandas_1')!;
    const folder = path.join(DEMO, c.files.folder!);
    const read = (kind: string) =>
      JSON.parse(
        fs.readFileSync(path.join(folder, `${c.name}_${kind}.ipynb`), 'utf8')
      );
    const ladder = hintLadder(c, read('reproduced'), read('fixed'));
    for (const question of DIAGNOSIS_QUESTIONS) {
      const hint = ladder.find(h => h.step === HINT_STEP_OF[question])!;
      expect(normaliseLabel(hint.text)).toContain(normaliseLabel(c[question]));
      for (const other of ladder.filter(h => h !== hint)) {
        if (normaliseLabel(c[question]).length > 4) {
          expect(normaliseLabel(other.text)).not.toContain(
            normaliseLabel(c[question])
          );
        }
      }
    }
  });
});

describe('diagnosisChoices', () => {
  const make = (over: Partial<ICase>): ICase =>
    ({ rootCause: '', crashType: '', pipelineStage: '', ...over }) as ICase;

  it('lists each label once, alphabetically, skipping empty ones', () => {
    const choices = diagnosisChoices([
      make({ rootCause: 'data confusion', crashType: 'key error' }),
      make({ rootCause: 'API misuse', crashType: 'Key error ' }),
      make({ rootCause: 'data confusion', pipelineStage: 'training' }),
      make({ rootCause: '  ' })
    ]);
    expect(choices).toEqual({
      rootCause: ['API misuse', 'data confusion'],
      crashType: ['key error'],
      pipelineStage: ['training']
    });
  });

  const real = fs.existsSync(path.join(SHARED, 'benchmark_desc.xlsx'))
    ? it
    : it.skip;
  real('gives the label sets of the real JunoBench descriptor', async () => {
    const book = await loadLocalCasebook(SHARED);
    const choices = diagnosisChoices(book.cases);
    expect(choices.rootCause).toHaveLength(6);
    expect(choices.pipelineStage).toHaveLength(5);
    expect(choices.crashType).toHaveLength(15);
    expect(choices.rootCause).toContain('NB specific');
    for (const c of book.cases) {
      expect(scoreDiagnosis(c, predict(c)).correct).toBe(3);
    }
  });
});

describe('hasAnswer', () => {
  it('is false for nothing or only "not sure"', () => {
    expect(hasAnswer(null)).toBe(false);
    expect(hasAnswer(predict({}))).toBe(false);
    expect(hasAnswer(predict({ pipelineStage: 'training' }))).toBe(true);
  });
});
