/** Display rules of the storefront: pure functions, unit-tested next to each module. */
export * from './activity';
export * from './currency';
export * from './dates';
export * from './discount';
export * from './duration';
export * from './localization';
export * from './numbers';
export * from './serverTimes';
