const path = require('node:path');
const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'api-gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Swagger UI's assets (/docs) come through @fastify/static, whose content-disposition 3 is an ES module: Node
  // require()s it, Jest cannot. The tests get the root's content-disposition 2 instead, CommonJS with the same create().
  moduleNameMapper: { ...preset.moduleNameMapper, '^content-disposition$': path.join(__dirname, '../../node_modules/content-disposition/dist/index.js') },
};
