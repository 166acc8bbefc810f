import { defineConfig } from "vite";

// Relative asset URLs, so dist/ can be served from any path.
export default defineConfig({ base: "./", build: { outDir: "dist", emptyOutDir: true, target: "es2022" }, logLevel: "warn" });
