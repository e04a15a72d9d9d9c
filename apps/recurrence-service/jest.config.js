module.exports = { ...require('../../jest.preset.js'), displayName: 'recurrence-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
