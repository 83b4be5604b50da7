// Starts `pcl lsp` for `.pp` files (language id `pcl`) and stops it with
// the extension. Everything a PCL author sees beyond highlighting
// (diagnostics, hover, completion, navigation, rename, formatting, quick
// fixes) comes from the server.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("pcl.server.path")) {
        await restart();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(): Promise<void> {
  const settings = vscode.workspace.getConfiguration("pcl");
  const command = settings.get<string>("server.path") || "pcl";
  const serverOptions: ServerOptions = {
    run: { command, args: ["lsp"] },
    debug: { command, args: ["lsp"] },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "pcl" },
      { scheme: "untitled", language: "pcl" },
    ],
    initializationOptions: editorSettings(),
    // The server reads the `pcl` section of each change of settings.
    synchronize: { configurationSection: "pcl" },
  };
  client = new LanguageClient("pcl", "PCL", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(
      `Cannot start the PCL language server (\`${command} lsp\`): ${message}. ` +
        "Install pcl or set `pcl.server.path`.",
    );
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

/// The server's settings, in `pcl.toml`'s keys.
function editorSettings(): Record<string, unknown> {
  const settings = vscode.workspace.getConfiguration("pcl");
  return { "schema-dirs": settings.get<string[]>("schema-dirs") ?? [] };
}
