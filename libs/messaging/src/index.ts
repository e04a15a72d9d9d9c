export * from './kafka';
export * from './subscriber';
export { stopKafkajsIdleLoop } from './kafkajs-idle-loop';
