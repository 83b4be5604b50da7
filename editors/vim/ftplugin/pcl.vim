" PCL buffers: `#` comments (`//` and `/* */` are read too), two-space
" indentation as `pcl fmt` writes it.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s
setlocal comments=:#,://,s1:/*,mb:*,ex:*/
setlocal expandtab shiftwidth=2 softtabstop=2 tabstop=2
setlocal autoindent smartindent
setlocal iskeyword+=-
setlocal formatoptions-=t formatoptions+=croql

let b:undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< softtabstop< tabstop< autoindent< smartindent< iskeyword< formatoptions<"
