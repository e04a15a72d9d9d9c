module.exports = { ...require('../../jest.preset.js'), displayName: 'request-log', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
