/**
 * The casebook layer: parsing JunoBench's descriptor and diagnoses, finding case
 * folders, and searching the catalogue. Pure logic; no DOM, no Node-only modules.
 */

export * from './types';
export * from './paths';
export * from './library';
export * from './traceback';
export * from './descriptor';
export * from './diagnoses';
export * from './loader';
export * from './notebook';
export * from './filter';
export * from './runnable';
export * from './messages';
export * from './contentsSource';
