module.exports = { ...require('../../jest.preset.js'), displayName: 'pix', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
