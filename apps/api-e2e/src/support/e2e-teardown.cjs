// After the last end-to-end file: the shared system (e2e-environment.cjs) is stopped.
module.exports = () => require('./e2e-environment.cjs').stopSharedSystem();
