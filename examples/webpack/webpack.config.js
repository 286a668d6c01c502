// Minimal webpack 5 config: nothing pippin-specific (the Wasm is embedded in the JS as base64).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';

const here = dirname(fileURLToPath(import.meta.url));

export default {
  mode: 'production',
  entry: './src/main.js',
  output: { path: resolve(here, 'dist'), filename: '[name].[contenthash].js', clean: true },
  plugins: [new HtmlWebpackPlugin({ template: './index.html' })],
};
