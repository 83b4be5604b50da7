" Highlighting for PCL (Pulumi Configuration Language): HCL syntax with
" PCL's block types. Neovim 0.7 has neither an HCL syntax file nor semantic
" tokens, so this is what colours `.pp` files there; later editors also
" get the language server's semantic tokens on top.
if exists("b:current_syntax")
  finish
endif

syntax case match

" Operators (first: a comment or heredoc that starts with one wins).
syntax match pclOperator "[-+*/%!<>=&|?:]"

" Comments.
syntax keyword pclTodo contained TODO FIXME XXX NOTE
syntax match pclComment "#.*$" contains=pclTodo,@Spell
syntax match pclComment "//.*$" contains=pclTodo,@Spell
syntax region pclComment start="/\*" end="\*/" contains=pclTodo,@Spell

" Block types at the start of a line, with the name (and quoted type) that
" follows: `resource web "aws:ec2/instance:Instance" {`.
syntax match pclBlock "^\s*\zs\%(resource\|component\|config\|output\|local\|package\|options\|read\|pulumi\)\>\ze\s*[[:alnum:]_"{-]"
syntax match pclBlockName "\%(^\s*\%(resource\|component\|config\|output\|package\|read\)\s\+\)\@<=[[:alpha:]_][[:alnum:]_-]*"

" Attribute names (`name =`, not `==`) and object keys.
syntax match pclAttribute "^\s*\zs[[:alpha:]_][[:alnum:]_-]*\ze\s*=\%([^=]\|$\)"

" Keywords of expressions.
syntax keyword pclKeyword for in if else endif endfor
syntax keyword pclBoolean true false
syntax keyword pclNull null
syntax keyword pclType string number int bool list map set object tuple union output promise any none dynamic

" Function calls: a name before `(`.
syntax match pclFunction "\<[[:alpha:]_][[:alnum:]_]*\ze\s*("

" Numbers: integers, decimals and exponents.
syntax match pclNumber "\<\d\+\%(\.\d\+\)\=\%([eE][+-]\=\d\+\)\=\>"

" Strings, with escapes and templates: `${ … }` interpolations and
" `%{ … }` directives hold expressions.
syntax match pclEscape contained "\\\%([ntr"\\]\|u\x\{4}\|U\x\{8}\)"
syntax match pclEscape contained "\$\${\|%%{"
syntax region pclInterpolation contained matchgroup=pclInterpolationDelimiter start="\${" end="}" contains=@pclExpression
syntax region pclDirective contained matchgroup=pclInterpolationDelimiter start="%{" end="}" contains=pclDirectiveKeyword,@pclExpression
syntax keyword pclDirectiveKeyword contained if else endif for in endfor
syntax region pclString start=+"+ skip=+\\\\\|\\"+ end=+"+ contains=pclEscape,pclInterpolation,pclDirective,@Spell

" Heredocs: `<<EOT` or `<<-EOT` up to the line holding only the marker.
syntax region pclHeredoc matchgroup=pclHeredocMarker start="<<-\=\z([[:alpha:]_][[:alnum:]_]*\)$" end="^\s*\z1$" contains=pclEscape,pclInterpolation,pclDirective

" Brackets hold any expression (nested objects, `for` expressions, calls).
syntax region pclBraces matchgroup=pclBrace start="{" end="}" transparent contains=ALLBUT,pclEscape,pclDirectiveKeyword,@pclInTemplate
syntax region pclBrackets matchgroup=pclBrace start="\[" end="\]" transparent contains=ALLBUT,pclEscape,pclDirectiveKeyword,@pclInTemplate
syntax region pclParens matchgroup=pclBrace start="(" end=")" transparent contains=ALLBUT,pclEscape,pclDirectiveKeyword,@pclInTemplate

syntax cluster pclInTemplate contains=pclInterpolation,pclDirective
syntax cluster pclExpression contains=pclString,pclNumber,pclBoolean,pclNull,pclKeyword,pclFunction,pclOperator,pclBrackets,pclParens,pclNestedBraces
syntax region pclNestedBraces contained transparent start="{" end="}" contains=@pclExpression

syntax sync fromstart

highlight default link pclComment Comment
highlight default link pclTodo Todo
highlight default link pclBlock Structure
highlight default link pclBlockName Identifier
highlight default link pclAttribute Identifier
highlight default link pclKeyword Keyword
highlight default link pclDirectiveKeyword Keyword
highlight default link pclBoolean Boolean
highlight default link pclNull Constant
highlight default link pclType Type
highlight default link pclFunction Function
highlight default link pclNumber Number
highlight default link pclOperator Operator
highlight default link pclString String
highlight default link pclHeredoc String
highlight default link pclHeredocMarker Delimiter
highlight default link pclEscape SpecialChar
highlight default link pclInterpolationDelimiter Delimiter
highlight default link pclBrace Delimiter

let b:current_syntax = "pcl"
