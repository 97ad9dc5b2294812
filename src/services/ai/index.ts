/** AI: chat and writing help grounded in a workspace's pages, read as the caller. */
export { type AiService, type ChatStreamEvent, createAiService } from './chat.js';
export { createChatContext } from './context.js';
export { olderWritingAssistInput } from './older-writing-assist.js';
