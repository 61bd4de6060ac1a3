export * from "./compose.js";
