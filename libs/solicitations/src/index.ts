export * from './solicitation';
export * from './read-model/solicitations.migration';
export * from './read-model/solicitations.projection';
export * from './read-model/solicitation-work-claims.migration';
