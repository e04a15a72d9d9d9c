module.exports = { ...require('../../jest.preset.js'), displayName: 'secrets', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
