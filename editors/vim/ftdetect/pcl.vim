" PCL (Pulumi Configuration Language) programs are `.pp` files. Vim and
" Neovim ship a Puppet (or Pascal) detection for `.pp`; this one runs after
" theirs and wins.
autocmd BufNewFile,BufRead *.pp set filetype=pcl
