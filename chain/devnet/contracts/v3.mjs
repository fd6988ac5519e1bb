// Copies the official compiled Uniswap V3 contracts the devnet deploys from their pinned npm packages
// into ../artifacts/<Name>.json, ABI and bytecode unchanged, in the shape build.mjs writes (that of
// `solc --combined-json abi,bin,bin-runtime`, which abigen reads with --combined-json).
//
// The packages are large and are never installed: each pinned tarball is fetched with `npm pack` into
// a temporary directory, its sha512 checked against the integrity pinned below and against the
// registry's `npm view <pkg>@<version> dist.integrity` (any difference fails), and only the Hardhat
// artifacts listed in `artifacts` are extracted (with tar) and copied. Run through `make contracts`
// (needs node, npm, tar and the npm registry).
//
// Contracts are keyed by their Hardhat source name (`contracts/<path>.sol:<Name>`), as solc keys them:
// a library placeholder in solc's bytecode is `__$` + the first 34 hex digits of keccak256 of that key
// + `$__`, and abigen derives the same pattern from the key. NonfungibleTokenPositionDescriptor calls
// the NFTDescriptor library, so its artifact holds both contracts (as solc's combined output for it
// would), both unchanged: abigen then binds the library and records it as the descriptor's dependency,
// and chain/devnet links the placeholder to the deployed library's address at deploy time.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, "..", "artifacts");

// The pinned packages and the sha512 integrity of their tarballs (as the registry published them).
const packages = {
  "@uniswap/v3-core": {
    version: "1.0.1",
    integrity: "sha512-7pVk4hEm00j9tc71Y9+ssYpO6ytkeI0y7WE9P6UcmNzhxPePwyAxImuhVsTqWK9YFvzgtvzJHi64pBl4jUzKMQ==",
  },
  "@uniswap/v3-periphery": {
    version: "1.4.4",
    integrity: "sha512-S4+m+wh8HbWSO3DKk4LwUCPZJTpCugIsHrWR86m/OrUyvSqGDTXKFfc2sMuGXCZrD1ZqO3rhQsKgdWg3Hbb2Kw==",
  },
  "@uniswap/swap-router-contracts": {
    version: "1.3.1",
    integrity: "sha512-mh/YNbwKb7Mut96VuEtL+Z5bRe0xVIbjjiryn+iMMrK2sFKhR4duk/86mEz0UO5gSx4pQIw9G5276P5heY/7Rg==",
  },
  "@uniswap/v3-staker": {
    version: "1.0.2",
    integrity: "sha512-+swIh/yhY9GQGyQxT4Gz54aXYLK+uc3qsmIvaAX+FjvhcL9TGOvS9tXbQsCZM4AJW63vj6TLsmHIjGMIePL1BQ==",
  },
};

// One artifact file per entry: the contract first, then the libraries its bytecode links (every link
// reference must name a contract in the same file). Paths are inside the package's tarball.
const artifacts = [
  // The factory (createPool, enableFeeAmount; 0.05 %, 0.3 % and 1 % tiers enabled by its constructor)
  // and the pool it creates with CREATE2: keccak256 of the pool's creation bytecode is the canonical
  // init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54 (chain/devnet's
  // V3 test checks it).
  { name: "UniswapV3Factory", pkg: "@uniswap/v3-core", files: ["artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"] },
  { name: "UniswapV3Pool", pkg: "@uniswap/v3-core", files: ["artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json"] },
  // Positions as ERC-721 tokens (constructor(factory, WETH9, tokenDescriptor)); its tokenURI asks the
  // descriptor (constructor(WETH9, nativeCurrencyLabelBytes)), which calls the NFTDescriptor library.
  { name: "NonfungiblePositionManager", pkg: "@uniswap/v3-periphery", files: ["artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json"] },
  {
    name: "NonfungibleTokenPositionDescriptor",
    pkg: "@uniswap/v3-periphery",
    files: [
      "artifacts/contracts/NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json",
      "artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json",
    ],
  },
  // Quotes by simulating swaps (constructor(factory, WETH9)), initialized ticks of a bitmap word, and
  // V2 LP to V3 position migration (constructor(factory, WETH9, nonfungiblePositionManager)).
  { name: "QuoterV2", pkg: "@uniswap/v3-periphery", files: ["artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json"] },
  { name: "TickLens", pkg: "@uniswap/v3-periphery", files: ["artifacts/contracts/lens/TickLens.sol/TickLens.json"] },
  { name: "V3Migrator", pkg: "@uniswap/v3-periphery", files: ["artifacts/contracts/V3Migrator.sol/V3Migrator.json"] },
  // The router of V2 and V3 hops (constructor(factoryV2, factoryV3, positionManager, WETH9)).
  { name: "SwapRouter02", pkg: "@uniswap/swap-router-contracts", files: ["artifacts/contracts/SwapRouter02.sol/SwapRouter02.json"] },
  // Liquidity mining on position NFTs (constructor(factory, nonfungiblePositionManager,
  // maxIncentiveStartLeadTime, maxIncentiveDuration)).
  { name: "UniswapV3Staker", pkg: "@uniswap/v3-staker", files: ["artifacts/contracts/UniswapV3Staker.sol/UniswapV3Staker.json"] },
];

// fail stops the run (the temporary directory is removed on the way out) with a non-zero exit code.
function fail(msg) {
  throw new Error(msg);
}

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "partnerd-v3-"));
try {
  // Fetch and check each tarball, then extract only the artifacts taken from it.
  const roots = {};
  for (const [pkg, { version, integrity }] of Object.entries(packages)) {
    const spec = `${pkg}@${version}`;
    const dir = path.join(tmp, pkg.replace("/", "+"));
    fs.mkdirSync(dir);
    const packed = JSON.parse(run("npm", ["pack", spec, "--json", "--silent", "--pack-destination", dir], dir));
    const tarball = path.join(dir, packed[0].filename);
    const got = "sha512-" + crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64");
    const registry = run("npm", ["view", spec, "dist.integrity"], dir).trim();
    if (got !== integrity || registry !== integrity) {
      fail(`${spec}: tarball integrity ${got}, registry says ${registry}, pinned ${integrity}`);
    }
    const members = artifacts.filter((a) => a.pkg === pkg).flatMap((a) => a.files).map((f) => `package/${f}`);
    run("tar", ["-xzf", tarball, "-C", dir, "package/package.json", ...members], dir);
    const root = path.join(dir, "package");
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    if (manifest.name !== pkg || manifest.version !== version) {
      fail(`${spec}: the tarball holds ${manifest.name}@${manifest.version}`);
    }
    roots[pkg] = root;
  }

  fs.mkdirSync(outDir, { recursive: true });
  for (const { name, pkg, files } of artifacts) {
    const contracts = {};
    const links = [];
    for (const file of files) {
      const built = JSON.parse(fs.readFileSync(path.join(roots[pkg], file), "utf8"));
      const bin = built.bytecode?.replace(/^0x/, "");
      const runtime = built.deployedBytecode?.replace(/^0x/, "");
      if (!Array.isArray(built.abi) || !bin || !runtime || !built.sourceName || !built.contractName) {
        fail(`${pkg}/${file} has no ABI, bytecode, runtime bytecode or source name`);
      }
      contracts[`${built.sourceName}:${built.contractName}`] = { abi: built.abi, bin, "bin-runtime": runtime };
      for (const refs of [built.linkReferences ?? {}, built.deployedLinkReferences ?? {}]) {
        for (const [source, libs] of Object.entries(refs)) {
          for (const lib of Object.keys(libs)) links.push(`${source}:${lib}`);
        }
      }
    }
    // Every library linked is in this artifact, and every placeholder is one of them.
    const patterns = new Set();
    for (const key of links) {
      if (!contracts[key]) fail(`${name}: links ${key}, which is not in its artifact`);
      patterns.add(solcPattern(key));
    }
    for (const [key, c] of Object.entries(contracts)) {
      for (const code of [c.bin, c["bin-runtime"]]) {
        for (const m of code.matchAll(/__\$([0-9a-f]{34})\$__/g)) {
          if (!patterns.has(m[1])) fail(`${key}: placeholder ${m[0]} is no link reference`);
        }
        if (/[^0-9a-f]/.test(code.replaceAll(/__\$[0-9a-f]{34}\$__/g, ""))) fail(`${key}: bytecode is not hex`);
      }
    }
    const { version } = packages[pkg];
    const artifact = { contracts, source: `${pkg}@${version} ${files.join(", ")}` };
    fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(artifact, null, 2) + "\n");
    const main = Object.values(contracts)[0];
    console.log(`artifacts/${name}.json: ${main.bin.length / 2} bytes of init code, from ${pkg}@${version}` +
      (links.length ? ` (links ${[...new Set(links)].join(", ")})` : ""));
  }
} catch (e) {
  console.error(`v3.mjs: ${e.message}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

// solcPattern is solc's library placeholder body for a fully qualified name: the first 34 hex digits
// of its keccak256. Node's crypto has no keccak256 (sha3-256 differs), so it is computed here.
function solcPattern(fqn) {
  return keccak256(Buffer.from(fqn, "utf8")).toString("hex").slice(0, 34);
}

// keccak256 (Keccak-f[1600], rate 136 bytes, padding 0x01 ... 0x80): a small reference implementation.
function keccak256(data) {
  const RC = [
    0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
    0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
    0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
    0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
    0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
    0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
  ];
  const R = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
  const mask = (1n << 64n) - 1n;
  const rot = (x, n) => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & mask);
  const rate = 136;
  const padded = Buffer.alloc(Math.floor(data.length / rate) * rate + rate);
  data.copy(padded);
  padded[data.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const s = new Array(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) s[i] ^= padded.readBigUInt64LE(off + 8 * i);
    for (let round = 0; round < 24; round++) {
      const c = [0, 1, 2, 3, 4].map((x) => s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
      for (let x = 0; x < 5; x++) {
        const d = c[(x + 4) % 5] ^ rot(c[(x + 1) % 5], 1);
        for (let y = 0; y < 25; y += 5) s[x + y] ^= d;
      }
      const b = new Array(25);
      for (let x = 0; x < 5; x++) {
        for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rot(s[x + 5 * y], R[x + 5 * y]);
      }
      for (let x = 0; x < 5; x++) {
        for (let y = 0; y < 25; y += 5) s[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & mask & b[(x + 2) % 5 + y]);
      }
      s[0] ^= RC[round];
    }
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i++) out.writeBigUInt64LE(s[i], 8 * i);
  return out;
}
