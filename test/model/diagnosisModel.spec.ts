/**
 * The self-diagnosis model over a real progress tracker and StateDB: the
 * choices offered come from the casebook's label sets (plus a saved choice
 * they lack), a choice is a draft until saved, saving records the prediction,
 * a refused save says why and keeps the draft, and once the reveal is open
 * the prediction is final and scored.
 */
import { StateDB } from '@jupyterlab/statedb';

import { DiagnosisModel } from '../../src/model/diagnosisModel';
import { ProgressTracker } from '../../src/progress/tracker';
import type { DiagnosisQuestion } from '../../src/repair/selfDiagnosis';

const CASE = 'pandas_1';

/** The label sets offered per question. */
const LABELS: Record<DiagnosisQuestion, string[]> = {
  rootCause: ['data confusion', 'API misuse'],
  crashType: ['key error', 'type error'],
  pipelineStage: ['data preparation', 'data visualization']
};

/** A model over a tracker following the casebook `demo`. */
async function diagnosis(): Promise<{
  model: DiagnosisModel;
  tracker: ProgressTracker;
  changes: () => number;
}> {
  const tracker = new ProgressTracker({ state: new StateDB() });
  tracker.setCasebook('demo');
  await tracker.store!.ready;
  const model = new DiagnosisModel({
    choices: () => LABELS,
    progress: () => tracker.get(CASE),
    save: answers => tracker.recordPrediction(CASE, answers)
  });
  let changes = 0;
  model.stateChanged.connect(() => changes++);
  return { model, tracker, changes: () => changes };
}

describe('DiagnosisModel', () => {
  it('keeps a choice as a draft until it is saved as the prediction', async () => {
    const { model, tracker, changes } = await diagnosis();
    expect(model.status).toBeNull();
    expect(model.value('rootCause')).toBe('');
    expect(model.choices('crashType')).toEqual(['', ...LABELS.crashType]);
    model.choose('rootCause', 'data confusion');
    model.choose('crashType', 'key error');
    expect(changes()).toBe(2);
    expect(model.status).toBe('unsaved');
    expect(model.value('crashType')).toBe('key error');
    expect(tracker.get(CASE)?.prediction ?? null).toBeNull();

    await model.save();
    expect(model.status).toBe('saved');
    expect(tracker.get(CASE)?.prediction).toMatchObject({
      rootCause: 'data confusion',
      crashType: 'key error',
      pipelineStage: null
    });
    // The saved prediction shows, and a value the labels lack is still offered.
    expect(model.value('rootCause')).toBe('data confusion');
    const other = new DiagnosisModel({
      choices: () => ({ ...LABELS, rootCause: [] }),
      progress: () => tracker.get(CASE),
      save: async () => undefined
    });
    expect(other.choices('rootCause')).toEqual(['', 'data confusion']);
    expect(other.status).toBe('saved');
  });

  it('says why a save was refused and keeps the draft', async () => {
    const tracker = new ProgressTracker({ state: new StateDB() });
    // No casebook: the tracker refuses to record.
    const model = new DiagnosisModel({
      choices: () => LABELS,
      progress: () => tracker.get(CASE),
      save: answers => tracker.recordPrediction(CASE, answers)
    });
    model.choose('pipelineStage', 'data preparation');
    await model.save();
    expect(model.status).toBe('failed');
    expect(model.error).toBe('No casebook is loaded.');
    expect(model.value('pipelineStage')).toBe('data preparation');
  });

  it('is final and scored once the reveal is open', async () => {
    const { model, tracker } = await diagnosis();
    model.choose('rootCause', 'data confusion');
    model.choose('crashType', 'type error');
    await model.save();
    expect(model.locked).toBe(false);
    await tracker.recordReveal(CASE, {
      rootCause: 'data confusion',
      crashType: 'key error',
      pipelineStage: 'data preparation'
    });
    expect(model.locked).toBe(true);
    expect(model.status).toBe('final');
    expect(model.progress?.selfDiagnosis).toMatchObject({
      correct: 1,
      total: 3
    });
  });
});
