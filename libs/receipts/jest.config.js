module.exports = { ...require('../../jest.preset.js'), displayName: 'receipts', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
