/**
 * Replay planning for JunoBench notebooks: recorded and top-to-bottom plans,
 * crash location and crash comparison. Pure logic, no DOM or kernel.
 */

export * from './types';
export * from './ansi';
export * from './plan';
export * from './outputs';
