import { displayEname } from '../../src/casebook/display';

describe('displayEname', () => {
  it.each([
    ['nameerror', ["NameError: name 'x' is not defined"], 'NameError'],
    [
      'notfittederror',
      [
        'Traceback ...',
        'sklearn.exceptions.NotFittedError: This StandardScaler instance is not fitted yet.'
      ],
      'NotFittedError'
    ],
    [
      'keyerror',
      [
        'KeyError                                  Traceback (most recent call last)\nCell In[3], line 1',
        "KeyError: 'units'"
      ],
      'KeyError'
    ],
    ['valueerror', [], 'valueerror'],
    ['typeerror', ['ValueError: something else'], 'typeerror']
  ])('%s from %j is %s', (ename, traceback, expected) => {
    expect(displayEname({ ename, traceback })).toBe(expected);
  });
});
