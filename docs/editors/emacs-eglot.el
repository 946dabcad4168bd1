;;; LITMUS Lint in Emacs 29+ with eglot (init.el). The server: npm install -g litmus-lint
;; LITMUS files get a mode of their own (JSON with comments), so other JSON keeps its server.
(define-derived-mode litmus-json-mode js-json-mode "LITMUS"
  "JSON with comments, for LITMUS suite files.")

(add-to-list 'auto-mode-alist
             '("\\(?:\\.litmus\\.jsonc?\\|\\.litmus\\.jsonl\\|\\.tools\\.jsonc?\\|\\.env\\.jsonc?\\|\\.scores\\.json\\|/litmus\\.config\\.json\\|/litmus\\.harness\\.json\\)\\'"
               . litmus-json-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(litmus-json-mode . ("litmus-language-server" "--stdio"))))

(add-hook 'litmus-json-mode-hook #'eglot-ensure)
