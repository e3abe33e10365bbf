/**
 * Command ids of the extension.
 */
export namespace CommandIDs {
  /** Reload the casebook. */
  export const reloadCasebook = 'junobench:reload-casebook';
  /** Choose another casebook folder. */
  export const chooseCasebook = 'junobench:choose-casebook';
  /** Show the JunoBench panel. */
  export const openPanel = 'junobench:open-panel';
  /** Open a case (args: `name`). */
  export const openCase = 'junobench:open-case';
  /** Start a new working copy of a case, keeping the old one (args: `name`). */
  export const resetCase = 'junobench:reset-case';
  /** Replay the current working copy in the recorded order. */
  export const replay = 'junobench:replay-case';
  /** Run the current working copy top to bottom. */
  export const runTopToBottom = 'junobench:run-top-to-bottom';
  /** Interrupt the running replay. */
  export const interrupt = 'junobench:interrupt-replay';
  /** Show the hidden state of the current working copy's last replays. */
  export const showState = 'junobench:show-state';
  /** Show the case side panel of the current working copy and focus its first section. */
  export const showCasePanel = 'junobench:show-case-panel';
  /** Export the learner's progress as JSON. */
  export const exportProgressJSON = 'junobench:export-progress-json';
  /** Export the learner's progress as CSV. */
  export const exportProgressCSV = 'junobench:export-progress-csv';
  /** Check the learner's repair of the current working copy. */
  export const checkFix = 'junobench:check-fix';
  /** Reveal the diagnosis and the reference fix (args: `name`). */
  export const reveal = 'junobench:reveal';
  /** Give up on a case (an attempt) and reveal it (args: `name`). */
  export const giveUp = 'junobench:give-up';
  /** Open the next hint of a working copy (args: `id`, its notebook panel; default: the current one). */
  export const nextHint = 'junobench:next-hint';
  /** Start a workshop from its file (args: `path`; default: the file browser selection). */
  export const openWorkshop = 'junobench:open-workshop';
  /** Leave the active workshop. */
  export const leaveWorkshop = 'junobench:leave-workshop';
  /** Show the cohort report over learners' progress files (args: `path`, a folder). */
  export const cohortReport = 'junobench:cohort-report';
  /** Create an empty casebook folder (args: `path`, a server path; asked when absent). */
  export const newCasebook = 'junobench:new-casebook';
  /** Save the current notebook, just crashed, as a case of the casebook. */
  export const saveCase = 'junobench:save-case';
  /** Save the current notebook as the reference fix of its case. */
  export const saveFix = 'junobench:save-fix';
}
