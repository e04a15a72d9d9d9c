module.exports = { ...require('../../jest.preset.js'), displayName: 'payments', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
