module.exports = { ...require('../../jest.preset.js'), displayName: 'bank', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
