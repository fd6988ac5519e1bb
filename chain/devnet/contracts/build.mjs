// Compiles the devnet's own contracts (what no official package provides) with the pinned solc npm
// package (standard JSON, optimizer on, evmVersion cancun) and writes one artifact per contract to
// ../artifacts/<Name>.json; then copies the official compiled contracts the devnet deploys (see
// `official`: Uniswap V2 core and periphery, WETH9, the liquidity staker) from their pinned npm
// packages into artifacts of the same shape, ABI and bytecode unchanged.
// Each artifact has the shape of `solc --combined-json abi,bin,bin-runtime`, so abigen reads it with
// --combined-json. Run through `make contracts`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, "..", "artifacts");

// The contracts with an artifact, each in <Name>.sol. Interfaces.sol holds helpers only and ERC20.sol the
// abstract ERC-20 core the tokens inherit. AuditProbe is never deployed: chain/evm embeds a copy
// of its artifact (go generate ./chain/evm) and runs its runtime code in eth_call with a state override.
const contracts = [
  "Token",
  "Multicall3",
  "TaxToken",
  "AuditProbe",
];

const sources = {};
for (const file of fs.readdirSync(here).filter((f) => f.endsWith(".sol")).sort()) {
  sources[file] = { content: fs.readFileSync(path.join(here, file), "utf8") };
}

const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  },
};

const output = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of output.errors ?? []) {
  console.error(e.formattedMessage);
  if (e.severity === "error") failed = true;
}
if (failed) process.exit(1);

fs.mkdirSync(outDir, { recursive: true });
for (const name of contracts) {
  const file = `${name}.sol`;
  const c = output.contracts?.[file]?.[name];
  if (!c) {
    console.error(`build.mjs: ${name} not found in ${file}`);
    process.exit(1);
  }
  const artifact = {
    contracts: {
      [`${file}:${name}`]: {
        abi: c.abi,
        bin: c.evm.bytecode.object,
        "bin-runtime": c.evm.deployedBytecode.object,
      },
    },
    version: solc.version(),
    settings: { optimizer: input.settings.optimizer, evmVersion: input.settings.evmVersion },
  };
  fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(artifact, null, 2) + "\n");
  console.log(`artifacts/${name}.json: ${c.evm.bytecode.object.length / 2} bytes of init code`);
}

// Official compiled contracts, deployed as they are: the artifact in the npm package (pinned in
// package.json and package-lock.json) has the ABI and the bytecode solc gave Uniswap. Every one is
// self-contained (no library links; checked below).
const official = [
  // WETH9, the wrapped native token: Deposit/Withdrawal on wrap/unwrap, Transfer on transfers only.
  { name: "WETH9", pkg: "@uniswap/v2-periphery", file: "build/WETH9.json" },
  // The factory (constructor(_feeToSetter)) and the pair it creates with CREATE2: the pair's init code
  // is this artifact's bytecode, whose keccak256 is mainnet's init code hash
  // 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f (chain.UniswapV2InitCodeHash;
  // chain/devnet's tests check it).
  { name: "UniswapV2Factory", pkg: "@uniswap/v2-core", file: "build/UniswapV2Factory.json" },
  { name: "UniswapV2Pair", pkg: "@uniswap/v2-core", file: "build/UniswapV2Pair.json" },
  // Router02 (constructor(_factory, _WETH)); its pairFor computes pair addresses with mainnet's
  // init code hash, right because the factory and pair are the official ones.
  { name: "UniswapV2Router02", pkg: "@uniswap/v2-periphery", file: "build/UniswapV2Router02.json" },
  // Liquidity mining: the factory (constructor(rewardsToken, stakingRewardsGenesis); deploy and
  // notifyRewardAmounts) and the farm it deploys per staking token (60-day reward periods).
  { name: "StakingRewards", pkg: "@uniswap/liquidity-staker", file: "build/StakingRewards.json" },
  { name: "StakingRewardsFactory", pkg: "@uniswap/liquidity-staker", file: "build/StakingRewardsFactory.json" },
];

for (const { name, pkg, file } of official) {
  const dir = path.join(here, "node_modules", ...pkg.split("/"));
  const version = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
  const built = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  const bin = built.evm?.bytecode?.object ?? built.bytecode;
  const runtime = built.evm?.deployedBytecode?.object;
  if (!Array.isArray(built.abi) || !bin || !runtime) {
    console.error(`build.mjs: ${pkg}/${file} has no ABI, bytecode or runtime bytecode`);
    process.exit(1);
  }
  const links = { ...built.evm?.bytecode?.linkReferences, ...built.evm?.deployedBytecode?.linkReferences };
  if (Object.keys(links).length > 0 || /__/.test(bin)) {
    console.error(`build.mjs: ${pkg}/${file} needs library links`);
    process.exit(1);
  }
  const artifact = {
    contracts: { [`${name}.sol:${name}`]: { abi: built.abi, bin, "bin-runtime": runtime } },
    source: `${pkg}@${version} ${file}`,
  };
  fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(artifact, null, 2) + "\n");
  console.log(`artifacts/${name}.json: ${bin.length / 2} bytes of init code, from ${pkg}@${version}`);
}
