/**
 * The case form's model without a DOM: fields start from the case details
 * given (data files one per line), keep what is typed as typed, and make
 * case details trimmed, with empty data lines dropped.
 */
import type { ICaseDetails } from '../../src/model/authoringFlow';
import { CaseFormModel } from '../../src/model/caseFormModel';

/** Case details with a name and nothing else. */
const named = (name: string): ICaseDetails => ({
  name,
  rootCause: '',
  crashType: '',
  pipelineStage: '',
  mlBug: '',
  library: '',
  diagnosis: '',
  datasetTitle: '',
  datasetLicense: '',
  datasetUrl: '',
  data: []
});

describe('CaseFormModel', () => {
  it('keeps fields as typed and makes trimmed case details', () => {
    const model = new CaseFormModel({
      ...named('pandas_9'),
      data: ['data/a.csv', 'b.txt']
    });
    expect(model.text('name')).toBe('pandas_9');
    expect(model.text('data')).toBe('data/a.csv\nb.txt');
    let changes = 0;
    model.stateChanged.connect(() => changes++);
    model.set('crashType', ' key error ');
    model.set('data', ' c.csv \n\n\td.json');
    expect(changes).toBe(2);
    expect(model.text('crashType')).toBe(' key error ');
    expect(model.value).toEqual({
      ...named('pandas_9'),
      crashType: 'key error',
      data: ['c.csv', 'd.json']
    });
    model.dispose();
    expect(model.isDisposed).toBe(true);
    model.set('name', 'x');
    expect(changes).toBe(2);
  });
});
