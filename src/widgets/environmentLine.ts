/**
 * The case header's environment line: where the kernel runs and what differs
 * from the benchmark pins, translated.
 */
import type { TranslationBundle } from '@jupyterlab/translation';

import type { IDrift, IDriftReport } from '../kernel/drift';

/**
 * The environment line for a drift report, e.g. "Environment: in the
 * benchmark container (image junobench:latest@f041856032d3)." when nothing
 * differs there, else where it ran followed by what differs.
 */
export function environmentLine(
  report: Pick<
    IDriftReport,
    'differences' | 'python' | 'checked' | 'environment' | 'image'
  >,
  trans: Pick<TranslationBundle, '__' | '_n'>
): string {
  let where: string;
  switch (report.environment) {
    case 'container':
      where = report.image
        ? trans.__('in the benchmark container (image %1)', report.image)
        : trans.__('in the benchmark container');
      break;
    case 'pinned':
      where = trans.__('in the pinned junobench kernel');
      break;
    case 'server':
      where = trans.__("in the server's Python");
      break;
  }
  const n = report.differences.length;
  if (report.environment === 'container' && n === 0 && !report.python) {
    return trans.__('Environment: %1.', where);
  }
  const describe = (d: IDrift): string =>
    d.found === null
      ? trans.__('%1 not installed (pinned %2)', d.module, d.expected)
      : d.substitute
        ? trans.__(
            '%1 %2 (pinned %3, local substitute)',
            d.module,
            d.found,
            d.expected
          )
        : trans.__('%1 %2 (pinned %3)', d.module, d.found, d.expected);
  const what =
    n === 0
      ? trans.__('all %1 pinned libraries match the benchmark', report.checked)
      : trans._n(
          '%1 library differs from the benchmark pins: %2',
          '%1 libraries differ from the benchmark pins: %2',
          n,
          report.differences.map(describe).join(', ')
        );
  let text = trans.__('Environment: %1; %2.', where, what);
  if (report.python) {
    text += ' ';
    text += trans.__(
      'Python %1 (benchmark: %2).',
      report.python.found ?? '',
      report.python.expected
    );
  }
  return text;
}

/**
 * Where a kernel ran, as a noun phrase ("the pinned junobench kernel").
 */
export function environmentPlace(
  report: Pick<IDriftReport, 'environment' | 'image'>,
  trans: Pick<TranslationBundle, '__'>
): string {
  switch (report.environment) {
    case 'container':
      return report.image
        ? trans.__('the benchmark container (image %1)', report.image)
        : trans.__('the benchmark container');
    case 'pinned':
      return trans.__('the pinned junobench kernel');
    case 'server':
      return trans.__("the server's Python");
  }
}

/**
 * The environment in one short line, the differences left for a table on
 * demand: "Environment: the server's Python; 19 libraries differ from the
 * benchmark.", or "Environment: in the benchmark environment (…)." when
 * nothing differs.
 */
export function environmentSummary(
  report: Pick<
    IDriftReport,
    'differences' | 'python' | 'environment' | 'image'
  >,
  trans: Pick<TranslationBundle, '__' | '_n'>
): string {
  const place = environmentPlace(report, trans);
  const n = report.differences.length;
  if (n === 0 && !report.python) {
    return trans.__('Environment: in the benchmark environment (%1).', place);
  }
  if (n === 0) {
    return trans.__(
      'Environment: %1; its Python differs from the benchmark.',
      place
    );
  }
  return report.python
    ? trans._n(
        'Environment: %2; Python and %1 library differ from the benchmark.',
        'Environment: %2; Python and %1 libraries differ from the benchmark.',
        n,
        place
      )
    : trans._n(
        'Environment: %2; %1 library differs from the benchmark.',
        'Environment: %2; %1 libraries differ from the benchmark.',
        n,
        place
      );
}
