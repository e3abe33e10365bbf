/**
 * A static definitions finder for Python notebook cells: which names a cell
 * binds, which it reads, which cells define a name, and, for a NameError, when
 * each defining cell ran relative to the crash. It walks the syntax tree of
 * `@lezer/python` (the grammar JupyterLab ships through CodeMirror), which is
 * error-tolerant, so cells whose indentation was lost still yield the names of
 * the statements that parse. Pure: no DOM, no kernel.
 */

import { parser } from '@lezer/python';

/** A notebook cell as the finder needs it. */
export interface IDefinitionCell {
  /** The cell's source text. */
  source: string;
  /** The recorded execution count, or null for a cell that never ran. */
  executionCount: number | null;
  /** nbformat `cell_type`; cells other than `code` define nothing (absent means code). */
  cellType?: string;
}

/** Which cells define a missing name and when each ran relative to the crash. */
export interface INameErrorExplanation {
  /** The missing name. */
  name: string;
  /** Indices of the cells that define the name, ascending. */
  definedIn: number[];
  /** Defining cells that ran before the crash step in the recorded order. */
  ranBeforeCrash: number[];
  /** Defining cells that never ran before the crash, nor after it. */
  neverRan: number[];
  /** Defining cells that ran only after the crash (later steps, or a higher execution count). */
  ranAfterCrashOnly: number[];
}

/**
 * List the names a cell binds in the notebook namespace (assignments, loop and `with`/`except`
 * targets, imports, `def`, `class`, walrus, `global` names assigned in functions), in source order;
 * names local to a function, a class body or a comprehension are left out.
 */
export function namesDefined(source: string): string[] {
  const walker = Private.analyse(source);
  return Private.unique(
    walker.events
      .filter(
        event =>
          event.kind === 'bind' &&
          (event.scope.kind === 'module' || event.scope.globals.has(event.name))
      )
      .map(event => event.name)
  );
}

/**
 * List the names a cell reads from the notebook namespace, in source order: identifiers in load
 * context anywhere in the cell, free names inside its functions and lambdas included (a call
 * reads them), builtins included, attribute and keyword-argument names and names local to a
 * function or comprehension excluded; a name the cell reads after binding it itself is still
 * listed.
 */
export function namesRead(source: string): string[] {
  const walker = Private.analyse(source);
  return Private.unique(
    walker.events
      .filter(
        event =>
          event.kind === 'load' && Private.readsCell(event.scope, event.name)
      )
      .map(event => event.name)
  );
}

/**
 * Return the indices of the code cells that define `name` (see `namesDefined`).
 */
export function definitionSites(
  cells: IDefinitionCell[],
  name: string
): number[] {
  const sites: number[] = [];
  cells.forEach((cell, index) => {
    if (Private.isCode(cell) && namesDefined(cell.source).includes(name)) {
      sites.push(index);
    }
  });
  return sites;
}

/**
 * Explain a NameError: the cells that define the missing name, split by whether they ran before
 * the crash in the recorded order (cell indices in run order; the crash is the last run of the
 * target there, or after all of it when the target is absent), only after it, or never.
 */
export function explainNameError(
  cells: IDefinitionCell[],
  targetIndex: number,
  missing: string,
  recordedOrder: number[]
): INameErrorExplanation {
  const definedIn = definitionSites(cells, missing);
  const crashStep = recordedOrder.lastIndexOf(targetIndex);
  const crashAt = crashStep < 0 ? recordedOrder.length : crashStep;
  const before = new Set(recordedOrder.slice(0, crashAt));
  const after = new Set(recordedOrder.slice(crashAt + 1));
  const targetCount = cells[targetIndex]?.executionCount ?? null;
  const explanation: INameErrorExplanation = {
    name: missing,
    definedIn,
    ranBeforeCrash: [],
    neverRan: [],
    ranAfterCrashOnly: []
  };
  for (const index of definedIn) {
    const count = cells[index].executionCount;
    if (before.has(index)) {
      explanation.ranBeforeCrash.push(index);
    } else if (
      after.has(index) ||
      (targetCount !== null && count !== null && count > targetCount)
    ) {
      // A higher prompt than the crashing cell's: it ran later in the
      // recorded session even when the replay plan stops at the crash.
      explanation.ranAfterCrashOnly.push(index);
    } else {
      explanation.neverRan.push(index);
    }
  }
  return explanation;
}

/**
 * Read the missing variable from a NameError or UnboundLocalError message (`name 'x' is not
 * defined`, `cannot access free variable 'x' ...`, `local variable 'x' referenced before
 * assignment`), or null for any other message.
 */
export function missingNameFromError(evalue: string): string | null {
  for (const pattern of Private.MISSING_NAME) {
    const match = pattern.exec(evalue);
    if (match && Private.IDENTIFIER.test(match[1])) {
      return match[1];
    }
  }
  return null;
}

namespace Private {
  /** Messages of NameError and UnboundLocalError across Python versions; group 1 is the name. */
  export const MISSING_NAME = [
    /name '([^']+)' is not defined/,
    /cannot access (?:free|local) variable '([^']+)'/,
    /(?:free|local) variable '([^']+)' referenced before assignment/
  ];

  /** A Python identifier (Unicode letters allowed). */
  export const IDENTIFIER =
    /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

  /** Cell magics whose body is not Python: the whole cell is blanked. */
  const FOREIGN_CELL_MAGICS = new Set([
    'bash',
    'cmd',
    'file',
    'html',
    'javascript',
    'js',
    'latex',
    'markdown',
    'perl',
    'powershell',
    'pypy',
    'python2',
    'r',
    'ruby',
    'script',
    'sh',
    'sql',
    'svg',
    'sx',
    'system',
    'writefile'
  ]);

  /**
   * A line that is an IPython magic, shell escape or help request (`%x`, `%%x`, `!cmd`, `?x`);
   * a magic starts with a letter, so a continuation line `% value)` stays Python.
   */
  const MAGIC_LINE = /^\s*(?:%%?[A-Za-z]|!(?!=)|\?)/;

  /** A help request at the end of a line: `df.head?`, `obj??`. */
  const HELP_SUFFIX = /^\s*[\w.]+\?\??\s*$/;

  /** `x = !ls` or `t = %timeit -o f()`: keep the assignment, drop the magic. */
  const MAGIC_ASSIGNMENT = /^(\s*[\w.,\s()[\]*]+?=)\s*[%!](?!=).*$/;

  /** Scope kinds, as Python resolves names. */
  export type ScopeKind = 'module' | 'function' | 'class' | 'comprehension';

  /** A scope of the cell and what it binds and declares. */
  export class Scope {
    constructor(
      readonly kind: ScopeKind,
      readonly parent: Scope | null
    ) {}

    /** Names bound in this scope. */
    readonly bound = new Set<string>();
    /** Names declared `global` here. */
    readonly globals = new Set<string>();
    /** Names declared `nonlocal` here. */
    readonly nonlocals = new Set<string>();
  }

  /** A binding or a read of a name in a scope, in source order. */
  export interface IEvent {
    kind: 'bind' | 'load';
    name: string;
    scope: Scope;
  }

  /** A syntax node of the lezer tree. */
  type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

  /** A unit of work of the walker. */
  type Task = () => void;

  /** Punctuation and keywords that carry no name. */
  const SILENT = new Set([
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    ',',
    ':',
    ';',
    '.',
    '*',
    '**',
    '/',
    'async',
    'lambda',
    'def',
    'class',
    'in',
    'for',
    'if',
    'as',
    'Comment'
  ]);

  /** Comprehension nodes: their element and targets live in a scope of their own. */
  const COMPREHENSIONS = new Set([
    'ArrayComprehensionExpression',
    'SetComprehensionExpression',
    'DictionaryComprehensionExpression',
    'ComprehensionExpression'
  ]);

  /** Target containers whose elements are bound one by one. */
  const TARGET_SEQUENCES = new Set([
    'TupleExpression',
    'ParenthesizedExpression',
    'ArrayExpression'
  ]);

  /**
   * Walks a cell's tree and records bindings and reads per scope. It keeps
   * its own work stack instead of recursing, so a deeply nested expression
   * (a long `a + b + ...` chain) cannot overflow the call stack.
   */
  export class Walker {
    constructor(private readonly source: string) {}

    /** Bindings and reads in source order. */
    readonly events: IEvent[] = [];
    /** The cell's top-level scope. */
    readonly module = new Scope('module', null);

    /** Walk the tree from its top node. */
    run(top: SyntaxNode): void {
      this.schedule([() => this.visit(top, this.module)]);
      let task = this.stack.pop();
      while (task) {
        task();
        task = this.stack.pop();
      }
    }

    private schedule(tasks: Task[]): void {
      for (let i = tasks.length - 1; i >= 0; i--) {
        this.stack.push(tasks[i]);
      }
    }

    private text(node: SyntaxNode): string {
      return this.source.slice(node.from, node.to);
    }

    private bind(scope: Scope, name: string): void {
      scope.bound.add(name);
      this.events.push({ kind: 'bind', name, scope });
    }

    private load(scope: Scope, name: string): void {
      this.events.push({ kind: 'load', name, scope });
    }

    /** Visit every child in load context. */
    private visitChildren(node: SyntaxNode, scope: Scope): void {
      this.schedule(
        children(node).map(child => () => this.visit(child, scope))
      );
    }

    /** Visit a node in load context. */
    private visit(node: SyntaxNode, scope: Scope): void {
      if (node.type.isError || SILENT.has(node.name)) {
        return;
      }
      switch (node.name) {
        case 'VariableName':
          this.load(scope, this.text(node));
          return;
        case 'PropertyName':
        case 'String':
          return;
        case 'AssignStatement':
          this.assignment(node, scope);
          return;
        case 'UpdateStatement':
          this.update(node, scope);
          return;
        case 'ImportStatement':
          this.importStatement(node, scope);
          return;
        case 'FunctionDefinition':
          this.functionDefinition(node, scope);
          return;
        case 'ClassDefinition':
          this.classDefinition(node, scope);
          return;
        case 'Decorator':
          this.decorator(node, scope);
          return;
        case 'LambdaExpression':
          this.lambda(node, scope);
          return;
        case 'ForStatement':
          this.forStatement(node, scope);
          return;
        case 'WithStatement':
        case 'TryStatement':
          this.asTargets(node, scope);
          return;
        case 'ScopeStatement':
          this.scopeStatement(node, scope);
          return;
        case 'NamedExpression':
          this.namedExpression(node, scope);
          return;
        case 'ArgList':
          this.argList(node, scope);
          return;
        case 'DeleteStatement':
          this.deleteStatement(node, scope);
          return;
        case 'MatchClause':
          this.matchClause(node, scope);
          return;
        case 'TypeDefinition':
          this.typeDefinition(node, scope);
          return;
        default:
          if (COMPREHENSIONS.has(node.name)) {
            this.comprehension(children(node), scope);
            return;
          }
          this.visitChildren(node, scope);
      }
    }

    /** `a = b = value`, `a, *b = value`, `x: T = value`, `x: T`. */
    private assignment(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      const lastOp = findLastIndex(parts, part => part.name === 'AssignOp');
      this.schedule(
        parts.map((part, i): Task => {
          if (part.name === 'AssignOp') {
            return () => undefined;
          }
          if (part.name === 'TypeDef' || i > lastOp) {
            return () => this.visit(part, scope);
          }
          if (lastOp < 0) {
            // A bare annotation (`x: int`) binds nothing at run time.
            return () => this.annotationTarget(part, scope);
          }
          return () => this.target(part, scope, false);
        })
      );
    }

    /** The target of a bare annotation: only a subscript or attribute target reads anything. */
    private annotationTarget(node: SyntaxNode, scope: Scope): void {
      if (node.name === 'VariableName') {
        if (scope.kind !== 'module') {
          // An annotated name is local to its function even without a value.
          scope.bound.add(this.text(node));
        }
        return;
      }
      this.visit(node, scope);
    }

    /** `x += value`: the target is read and bound. */
    private update(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      const op = parts.findIndex(part => part.name === 'UpdateOp');
      this.schedule(
        parts.map((part, i): Task =>
          op >= 0 && i < op
            ? () => this.target(part, scope, true)
            : () => this.visit(part, scope)
        )
      );
    }

    /** Bind an assignment target: names, nested tuples and lists, starred names. */
    private target(node: SyntaxNode, scope: Scope, alsoRead: boolean): void {
      if (node.type.isError || SILENT.has(node.name)) {
        return;
      }
      if (node.name === 'VariableName') {
        const name = this.text(node);
        if (alsoRead) {
          this.load(scope, name);
        }
        this.bind(scope, name);
        return;
      }
      if (TARGET_SEQUENCES.has(node.name)) {
        this.schedule(
          children(node).map(child => () => this.target(child, scope, alsoRead))
        );
        return;
      }
      // `obj.attr = ...`, `df['a'] = ...`: the object is read, nothing is bound.
      this.visit(node, scope);
    }

    /** `import a.b` binds `a`; `import a.b as c` and `from m import b as c` bind `c`; `*` binds nothing. */
    private importStatement(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      // In `from m import ...` the module before `import` binds nothing.
      const start = parts.findIndex(part => part.name === 'import') + 1;
      if (start === 0) {
        return;
      }
      let group: SyntaxNode[] = [];
      const flush = (): void => {
        const as = group.findIndex(part => part.name === 'as');
        const bound =
          as >= 0
            ? group.slice(as + 1).find(part => part.name === 'VariableName')
            : group.find(part => part.name === 'VariableName');
        if (bound) {
          this.bind(scope, this.text(bound));
        }
        group = [];
      };
      for (const part of parts.slice(start)) {
        if (part.name === ',') {
          flush();
        } else if (part.name !== '(' && part.name !== ')') {
          group.push(part);
        }
      }
      flush();
    }

    /** `def f(params) -> T: body`: `f` is bound here, the body runs in a scope of its own. */
    private functionDefinition(node: SyntaxNode, scope: Scope): void {
      const inner = new Scope('function', scope);
      this.schedule(
        children(node).map((part): Task => {
          switch (part.name) {
            case 'VariableName':
              return () => this.bind(scope, this.text(part));
            case 'ParamList':
              return () => this.params(part, scope, inner);
            case 'TypeParamList':
              return () => this.typeParams(part, inner);
            case 'TypeDef':
              return () => this.visit(part, scope);
            case 'Body':
              return () => this.visit(part, inner);
            default:
              return () => undefined;
          }
        })
      );
    }

    /** Parameters are bound in the function's scope; annotations and defaults are read outside. */
    private params(node: SyntaxNode, outer: Scope, inner: Scope): void {
      let isDefault = false;
      const tasks: Task[] = [];
      for (const part of children(node)) {
        if (part.name === 'AssignOp') {
          isDefault = true;
          continue;
        }
        if (isDefault) {
          isDefault = false;
          tasks.push(() => this.visit(part, outer));
        } else if (part.name === 'VariableName') {
          tasks.push(() => this.bind(inner, this.text(part)));
        } else if (part.name === 'TypeDef') {
          tasks.push(() => this.visit(part, outer));
        }
      }
      this.schedule(tasks);
    }

    /** PEP 695 type parameters are names of the function or class scope. */
    private typeParams(node: SyntaxNode, inner: Scope): void {
      for (const param of children(node)) {
        const name = children(param).find(p => p.name === 'VariableName');
        if (name) {
          inner.bound.add(this.text(name));
        }
      }
    }

    /** `class C(bases): body`: `C` is bound here; the body's names are class attributes. */
    private classDefinition(node: SyntaxNode, scope: Scope): void {
      const inner = new Scope('class', scope);
      this.schedule(
        children(node).map((part): Task => {
          switch (part.name) {
            case 'VariableName':
              return () => this.bind(scope, this.text(part));
            case 'ArgList':
              return () => this.visit(part, scope);
            case 'TypeParamList':
              return () => this.typeParams(part, inner);
            case 'Body':
              return () => this.visit(part, inner);
            default:
              return () => undefined;
          }
        })
      );
    }

    /** `@a.b(args)`: only `a` is read (the dotted name's other parts are attributes). */
    private decorator(node: SyntaxNode, scope: Scope): void {
      let first = true;
      const tasks: Task[] = [];
      for (const part of children(node)) {
        if (part.name === 'VariableName') {
          if (first) {
            tasks.push(() => this.load(scope, this.text(part)));
          }
          first = false;
        } else if (part.name === 'ArgList') {
          tasks.push(() => this.visit(part, scope));
        }
      }
      this.schedule(tasks);
    }

    /** `lambda params: body` has a scope of its own, like a function. */
    private lambda(node: SyntaxNode, scope: Scope): void {
      const inner = new Scope('function', scope);
      this.schedule(
        children(node).map((part): Task =>
          part.name === 'ParamList'
            ? () => this.params(part, scope, inner)
            : () => this.visit(part, inner)
        )
      );
    }

    /** `for targets in iterable: body else: body`. */
    private forStatement(node: SyntaxNode, scope: Scope): void {
      let inTargets = false;
      const tasks: Task[] = [];
      for (const part of children(node)) {
        if (part.name === 'for') {
          inTargets = true;
        } else if (part.name === 'in') {
          inTargets = false;
        } else if (inTargets) {
          tasks.push(() => this.target(part, scope, false));
        } else {
          tasks.push(() => this.visit(part, scope));
        }
      }
      this.schedule(tasks);
    }

    /** `with x as name` and `except E as name`: the name after `as` is bound. */
    private asTargets(node: SyntaxNode, scope: Scope): void {
      let afterAs = false;
      const tasks: Task[] = [];
      for (const part of children(node)) {
        if (part.name === 'as') {
          afterAs = true;
          continue;
        }
        if (afterAs && part.name === 'VariableName') {
          tasks.push(() => this.bind(scope, this.text(part)));
        } else {
          tasks.push(() => this.visit(part, scope));
        }
        afterAs = false;
      }
      this.schedule(tasks);
    }

    /** `global a, b` and `nonlocal a, b`. */
    private scopeStatement(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      const declared =
        parts[0]?.name === 'nonlocal' ? scope.nonlocals : scope.globals;
      for (const part of parts) {
        if (part.name === 'VariableName') {
          declared.add(this.text(part));
        }
      }
    }

    /** `(name := value)`: bound in the nearest scope that is not a comprehension. */
    private namedExpression(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      this.schedule(
        parts.map((part, i): Task =>
          i === 0 && part.name === 'VariableName'
            ? () => this.bind(outsideComprehension(scope), this.text(part))
            : () => this.visit(part, scope)
        )
      );
    }

    /** Call arguments: keyword names are not read; `f(x for x in xs)` is a comprehension. */
    private argList(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      if (parts.some(part => part.name === 'for')) {
        this.comprehension(parts, scope);
        return;
      }
      const tasks: Task[] = [];
      parts.forEach((part, i) => {
        const next = parts[i + 1];
        if (part.name === 'VariableName' && next?.name === 'AssignOp') {
          if (this.text(next) === ':=') {
            tasks.push(() =>
              this.bind(outsideComprehension(scope), this.text(part))
            );
          }
          return;
        }
        if (part.name !== 'AssignOp') {
          tasks.push(() => this.visit(part, scope));
        }
      });
      this.schedule(tasks);
    }

    /**
     * A comprehension's parts in order: the element, then `for targets in iterable` and `if
     * condition` clauses; the first iterable is read in the enclosing scope, the rest inside.
     */
    private comprehension(parts: SyntaxNode[], scope: Scope): void {
      const inner = new Scope('comprehension', scope);
      let state: 'element' | 'target' | 'iterable' | 'condition' = 'element';
      let firstIterable = true;
      const tasks: Task[] = [];
      for (const part of parts) {
        if (part.name === 'for') {
          state = 'target';
          continue;
        }
        if (part.name === 'in' && state === 'target') {
          state = 'iterable';
          continue;
        }
        if (part.name === 'if' && state !== 'element') {
          state = 'condition';
          continue;
        }
        if (part.type.isError || SILENT.has(part.name)) {
          continue;
        }
        if (state === 'target') {
          tasks.push(() => this.target(part, inner, false));
        } else if (state === 'iterable') {
          const where = firstIterable ? scope : inner;
          firstIterable = false;
          tasks.push(() => this.visit(part, where));
        } else {
          tasks.push(() => this.visit(part, inner));
        }
      }
      this.schedule(tasks);
    }

    /** `del x` binds nothing (in a function it makes `x` local); `del a[i]` reads `a` and `i`. */
    private deleteStatement(node: SyntaxNode, scope: Scope): void {
      const tasks: Task[] = [];
      for (const part of children(node)) {
        if (part.name === 'VariableName') {
          if (scope.kind !== 'module') {
            scope.bound.add(this.text(part));
          }
        } else if (part.name !== 'del') {
          tasks.push(() => this.visit(part, scope));
        }
      }
      this.schedule(tasks);
    }

    /** `case pattern if guard: body`. */
    private matchClause(node: SyntaxNode, scope: Scope): void {
      this.schedule(
        children(node).map((part): Task => {
          switch (part.name) {
            case 'case':
              return () => undefined;
            case 'Guard':
            case 'Body':
              return () => this.visit(part, scope);
            default:
              return () => this.pattern(part, scope);
          }
        })
      );
    }

    /** A `match` pattern: capture names are bound, class and value names are read. */
    private pattern(node: SyntaxNode, scope: Scope): void {
      if (node.type.isError || SILENT.has(node.name)) {
        return;
      }
      const parts = children(node);
      switch (node.name) {
        case 'CapturePattern': {
          const name = parts.find(part => part.name === 'VariableName');
          if (name && this.text(name) !== '_') {
            this.bind(scope, this.text(name));
          }
          return;
        }
        case 'AsPattern':
          this.schedule(
            parts.map((part): Task =>
              part.name === 'VariableName'
                ? () => this.bind(scope, this.text(part))
                : () => this.pattern(part, scope)
            )
          );
          return;
        case 'AttributePattern':
        case 'ClassPattern':
        case 'MappingPattern':
          this.schedule(
            parts.map((part, i): Task => {
              if (part.name === 'VariableName') {
                // The class, the dotted value's first name, or a mapping key.
                return i === 0 || node.name === 'MappingPattern'
                  ? () => this.load(scope, this.text(part))
                  : () => undefined;
              }
              return () => this.pattern(part, scope);
            })
          );
          return;
        case 'KeywordPattern':
          this.schedule(
            parts
              .filter(part => part.name !== 'VariableName')
              .map(part => () => this.pattern(part, scope))
          );
          return;
        case 'LiteralPattern':
          return;
        default:
          this.schedule(parts.map(part => () => this.pattern(part, scope)));
      }
    }

    /** `type Alias = value`. */
    private typeDefinition(node: SyntaxNode, scope: Scope): void {
      const parts = children(node);
      const name = parts.findIndex(part => part.name === 'VariableName');
      this.schedule(
        parts.map((part, i): Task =>
          i === name
            ? () => this.bind(scope, this.text(part))
            : () => this.visit(part, scope)
        )
      );
    }

    private readonly stack: Task[] = [];
  }

  /** Parse a cell (magics blanked) and record its bindings and reads. */
  export function analyse(source: string): Walker {
    const python = withoutMagics(source);
    const walker = new Walker(python);
    walker.run(parser.parse(python).topNode);
    return walker;
  }

  /**
   * Blank IPython magics, shell escapes and help requests line by line (keeping the line count),
   * turn `x = !cmd` into `x = None`, and blank a whole cell whose cell magic is not Python.
   */
  export function withoutMagics(source: string): string {
    const lines = source.replace(/\r\n?/g, '\n').split('\n');
    const cellMagic = /^\s*%%(\w+)/.exec(lines[0] ?? '');
    if (cellMagic && FOREIGN_CELL_MAGICS.has(cellMagic[1].toLowerCase())) {
      return '';
    }
    return lines
      .map(line => {
        const assigned = MAGIC_ASSIGNMENT.exec(line);
        if (assigned) {
          return `${assigned[1]} None`;
        }
        return MAGIC_LINE.test(line) || HELP_SUFFIX.test(line) ? '' : line;
      })
      .join('\n');
  }

  /** Tell whether a read in `scope` resolves to the notebook namespace (not to a local). */
  export function readsCell(scope: Scope, name: string): boolean {
    let current: Scope | null = scope;
    let nested = false;
    while (current) {
      if (current.kind === 'module' || current.globals.has(name)) {
        return true;
      }
      // Names of a class body are invisible from the functions inside it.
      const visible = current.kind !== 'class' || !nested;
      if (visible && !current.nonlocals.has(name) && current.bound.has(name)) {
        return false;
      }
      current = current.parent;
      nested = true;
    }
    return true;
  }

  /** Tell whether a cell holds code. */
  export function isCode(cell: IDefinitionCell): boolean {
    return cell.cellType === undefined || cell.cellType === 'code';
  }

  /** Drop repeated names, keeping the first of each. */
  export function unique(names: string[]): string[] {
    return [...new Set(names)];
  }

  /** The nearest enclosing scope that is not a comprehension (where `:=` binds). */
  function outsideComprehension(scope: Scope): Scope {
    let current = scope;
    while (current.kind === 'comprehension' && current.parent) {
      current = current.parent;
    }
    return current;
  }

  /** A node's children, in order. */
  function children(node: SyntaxNode): SyntaxNode[] {
    const result: SyntaxNode[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) {
      result.push(child);
    }
    return result;
  }

  /** The last index whose item passes `test`, or -1. */
  function findLastIndex<T>(items: T[], test: (item: T) => boolean): number {
    for (let i = items.length - 1; i >= 0; i--) {
      if (test(items[i])) {
        return i;
      }
    }
    return -1;
  }
}
