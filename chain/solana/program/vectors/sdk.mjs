// sdk.mjs: loads @raydium-io/raydium-sdk-v2's CPMM curve from the SDK's own published build,
// without installing the SDK or its dependency tree.
//
// The SDK's dist files are bundles: lib/raydium/cpmm/curve/calculator.js carries, besides
// CurveCalculator, much of the SDK (web3.js, spl-token, axios, ...) and runs it when loaded. So we
// parse the bundle (acorn), take the top-level declarations that the exported names need (their
// closure, found by a scope-aware walk of free identifiers), and evaluate exactly those statements,
// as shipped, character for character. The only module the closure may require is bn.js; anything
// else makes the extraction fail. The extracted source's sha256 is recorded in the vectors.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// extract returns the source of the statements that `exports` (export name -> local name) need.
export function extract(acorn, source, exportNames) {
  const ast = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script' });
  const decls = new Map(); // top-level name -> {start, end, text}
  const order = [];
  const assigns = []; // top-level expression statements: {roots, node}
  for (const st of ast.body) {
    if (st.type === 'VariableDeclaration') {
      for (const d of st.declarations) {
        if (d.id.type !== 'Identifier') throw new Error(`extract: top-level pattern at ${d.start}`);
        const item = { name: d.id.name, node: d, text: `var ${source.slice(d.start, d.end)};` };
        decls.set(d.id.name, item);
        order.push(item);
      }
    } else if (st.type === 'FunctionDeclaration' || st.type === 'ClassDeclaration') {
      const item = { name: st.id.name, node: st, text: source.slice(st.start, st.end) };
      decls.set(st.id.name, item);
      order.push(item);
    } else if (st.type === 'ExpressionStatement') {
      const item = { node: st, text: source.slice(st.start, st.end) + ';', roots: assignedRoots(st.expression) };
      assigns.push(item);
      order.push(item);
    }
  }
  // the export map: an object literal {Name: () => local, ...}
  const locals = {};
  walk(ast, (n) => {
    if (n.type !== 'Property' || n.computed || n.value.type !== 'ArrowFunctionExpression' || n.value.body.type !== 'Identifier') return;
    const key = n.key.type === 'Identifier' ? n.key.name : n.key.value;
    if (exportNames.includes(key) && !(key in locals)) locals[key] = n.value.body.name;
  });
  for (const name of exportNames) if (!locals[name]) throw new Error(`extract: no export ${name}`);

  const need = new Set();
  const queue = Object.values(locals);
  const take = (item) => {
    for (const v of freeVars(item.node)) if (decls.has(v) && !need.has(v)) queue.push(v);
  };
  const taken = new Set();
  for (;;) {
    while (queue.length) {
      const name = queue.pop();
      if (need.has(name)) continue;
      need.add(name);
      take(decls.get(name));
    }
    // statements that assign into a needed binding (static members set after a class) come along
    let more = false;
    for (const a of assigns) {
      if (!taken.has(a) && a.roots.length && a.roots.every((r) => need.has(r))) {
        taken.add(a);
        take(a);
        more = true;
      }
    }
    if (!more && !queue.length) break;
  }
  const requires = new Set();
  const parts = [];
  for (const item of order) {
    if (item.name ? !need.has(item.name) : !taken.has(item)) continue;
    walk(item.node, (n) => {
      if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require') {
        requires.add(n.arguments[0].value);
      }
    });
    parts.push(item.text);
  }
  const body = parts.join('\n');
  return { body, locals, requires: [...requires].sort() };
}

// load evaluates an extracted closure with bn.js as its only module.
export function load(extracted, BN, allowed = ['bn.js']) {
  for (const r of extracted.requires) if (!allowed.includes(r)) throw new Error(`extracted SDK code requires ${r}`);
  const req = (name) => {
    if (name === 'bn.js') return BN;
    throw new Error(`extracted SDK code required ${name}`);
  };
  const ret = `return {${Object.entries(extracted.locals).map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}};`;
  return new Function('require', `${extracted.body}\n${ret}`)(req);
}

export function sha256(s) {
  return createHash('sha256').update(s).digest('hex');
}

// loadSdk extracts CurveCalculator and RoundDirection from calculator.js and ConstantProductCurve
// from constantProduct.js (the SDK's dist) and returns them with provenance.
export function loadSdk({ sdkDir, acornPath, bnPath }) {
  const require = createRequire(import.meta.url);
  const acorn = require(acornPath);
  const BN = require(bnPath);
  const files = {
    calculator: ['lib/raydium/cpmm/curve/calculator.js', ['CurveCalculator', 'RoundDirection']],
    constantProduct: ['lib/raydium/cpmm/curve/constantProduct.js', ['ConstantProductCurve']],
  };
  const out = { BN, provenance: {} };
  for (const [file, names] of Object.values(files)) {
    const src = readFileSync(`${sdkDir}/${file}`, 'utf8');
    const ex = extract(acorn, src, names);
    Object.assign(out, load(ex, BN));
    out.provenance[file] = {
      fileSha256: sha256(src),
      exports: names,
      extractedStatements: ex.body.split('\n').length,
      extractedBytes: ex.body.length,
      extractedSha256: sha256(ex.body),
      requires: ex.requires,
    };
  }
  return out;
}

// ---- helpers: a generic AST walk, assignment roots, free identifiers ----

function walk(node, f) {
  if (!node || typeof node.type !== 'string') return;
  f(node);
  for (const k of Object.keys(node)) {
    if (k === 'type' || k === 'start' || k === 'end') continue;
    const v = node[k];
    if (Array.isArray(v)) for (const c of v) walk(c, f);
    else if (v && typeof v.type === 'string') walk(v, f);
  }
}

// assignedRoots: for `a.b = ..., c.d = ...` the names a and c; empty when the statement is not
// only assignments into members of bindings.
function assignedRoots(e) {
  const list = e.type === 'SequenceExpression' ? e.expressions : [e];
  const roots = [];
  for (const x of list) {
    if (x.type !== 'AssignmentExpression' || x.left.type !== 'MemberExpression') return [];
    let o = x.left;
    while (o.type === 'MemberExpression') o = o.object;
    if (o.type !== 'Identifier') return [];
    roots.push(o.name);
  }
  return roots;
}

// freeVars returns the identifiers a node references without declaring them. Every declaration
// inside a function (var, let, const, class, function, catch parameter) is taken as
// function-scoped: in minified code this can only hide a reference, and a hidden top-level
// reference would fail loudly when the extracted code runs.
function freeVars(root) {
  const free = new Set();
  const visit = (n, scope) => {
    if (!n || typeof n.type !== 'string') return;
    switch (n.type) {
      case 'Identifier':
        if (!scope.has(n.name)) free.add(n.name);
        return;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        const inner = new Scope(scope);
        if (n.id && n.type === 'FunctionExpression') inner.add(n.id.name);
        inner.add('arguments');
        for (const p of n.params) declarePattern(p, inner);
        declareHoisted(n.body, inner);
        for (const p of n.params) visitPattern(p, inner);
        visit(n.body, inner);
        return;
      }
      case 'ClassDeclaration':
      case 'ClassExpression': {
        const inner = new Scope(scope);
        if (n.id) inner.add(n.id.name);
        if (n.superClass) visit(n.superClass, inner);
        for (const m of n.body.body) {
          if (m.computed) visit(m.key, inner);
          if (m.type === 'StaticBlock') {
            const b = new Scope(inner);
            declareHoisted(m, b);
            for (const s of m.body) visit(s, b);
          } else if (m.value) visit(m.value, inner);
        }
        return;
      }
      case 'VariableDeclarator':
        visitPattern(n.id, scope);
        visit(n.init, scope);
        return;
      case 'MemberExpression':
        visit(n.object, scope);
        if (n.computed) visit(n.property, scope);
        return;
      case 'Property':
        if (n.computed) visit(n.key, scope);
        visit(n.value, scope);
        return;
      case 'MethodDefinition':
      case 'PropertyDefinition':
        if (n.computed) visit(n.key, scope);
        visit(n.value, scope);
        return;
      case 'LabeledStatement':
        visit(n.body, scope);
        return;
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'MetaProperty':
        return;
      case 'CatchClause': {
        const inner = new Scope(scope);
        if (n.param) {
          declarePattern(n.param, inner);
          visitPattern(n.param, inner);
        }
        visit(n.body, inner);
        return;
      }
      case 'AssignmentExpression':
        visitPattern(n.left, scope);
        visit(n.right, scope);
        return;
      default:
        for (const k of Object.keys(n)) {
          if (k === 'type' || k === 'start' || k === 'end') continue;
          const v = n[k];
          if (Array.isArray(v)) for (const c of v) visit(c, scope);
          else if (v && typeof v.type === 'string') visit(v, scope);
        }
    }
  };
  // visitPattern visits the expressions inside a pattern (defaults, computed keys, member targets)
  const visitPattern = (p, scope) => {
    if (!p) return;
    switch (p.type) {
      case 'Identifier':
        if (!scope.has(p.name)) free.add(p.name);
        return;
      case 'ObjectPattern':
        for (const q of p.properties) {
          if (q.type === 'RestElement') visitPattern(q.argument, scope);
          else {
            if (q.computed) visit(q.key, scope);
            visitPattern(q.value, scope);
          }
        }
        return;
      case 'ArrayPattern':
        for (const q of p.elements) visitPattern(q, scope);
        return;
      case 'RestElement':
        visitPattern(p.argument, scope);
        return;
      case 'AssignmentPattern':
        visitPattern(p.left, scope);
        visit(p.right, scope);
        return;
      default:
        visit(p, scope); // a member expression target
    }
  };
  const top = new Scope(null);
  if (root.type === 'FunctionDeclaration' || root.type === 'ClassDeclaration') {
    // the declared name is the binding itself; its uses inside are not free
    if (root.id) top.add(root.id.name);
  }
  if (root.type === 'VariableDeclarator') visit(root.init, top);
  else visit(root, top);
  return free;
}

class Scope {
  constructor(parent) {
    this.parent = parent;
    this.names = new Set();
  }
  add(n) {
    this.names.add(n);
  }
  has(n) {
    for (let s = this; s; s = s.parent) if (s.names.has(n)) return true;
    return false;
  }
}

function declarePattern(p, scope) {
  if (!p) return;
  switch (p.type) {
    case 'Identifier':
      scope.add(p.name);
      return;
    case 'ObjectPattern':
      for (const q of p.properties) declarePattern(q.type === 'RestElement' ? q.argument : q.value, scope);
      return;
    case 'ArrayPattern':
      for (const q of p.elements) declarePattern(q, scope);
      return;
    case 'RestElement':
      declarePattern(p.argument, scope);
      return;
    case 'AssignmentPattern':
      declarePattern(p.left, scope);
      return;
  }
}

// declareHoisted declares every binding made inside a function body, not entering nested functions.
function declareHoisted(body, scope) {
  const go = (n) => {
    if (!n || typeof n.type !== 'string') return;
    switch (n.type) {
      case 'FunctionDeclaration':
        scope.add(n.id.name);
        return;
      case 'ClassDeclaration':
        scope.add(n.id.name);
        return;
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ClassExpression':
        return;
      case 'VariableDeclarator':
        declarePattern(n.id, scope);
        go(n.init);
        return;
      case 'CatchClause':
        declarePattern(n.param, scope);
        go(n.body);
        return;
    }
    for (const k of Object.keys(n)) {
      if (k === 'type' || k === 'start' || k === 'end') continue;
      const v = n[k];
      if (Array.isArray(v)) for (const c of v) go(c);
      else if (v && typeof v.type === 'string') go(v);
    }
  };
  go(body);
}
