# The frontier plot of docs/strategy-quality.md: every measured point, by hand from the
# tables there. Run from the repository root: gnuplot docs/strategy-frontier.gp
set terminal svg size 900,520 dynamic font "sans,12"
set output 'docs/strategy-frontier.svg'
set title 'HULHE: real-game exploitability against core-hours (95% intervals)'
set xlabel 'core-hours of solving'
set ylabel 'mbb/g'
set logscale x
set xrange [0.04:6]
set yrange [250:760]
set key top right box opaque font ",10"
set grid
$std_old << EOD
0.667 331 17
1.267 323 17
1.533 321 16
EOD
$quick_old << EOD
0.2 407.4 0
EOD
$std_new << EOD
0.172 355.9 24.9
EOD
$quick_new << EOD
0.117 390.9 32.0
0.233 386.3 28.9
EOD
$thin << EOD
0.172 394.8 24.9
0.172 683.8 30.9
EOD
$std_split << EOD
2.0 303.9 16.2
4.0 311.4 15.8
EOD
$dev << EOD
0.0667 384.9 30.5
0.0667 391.6 31.0
0.0667 410.4 36.3
0.0667 386.7 30.9
0.0667 386.4 27.8
0.0667 385.5 30.8
EOD
plot $std_old using 1:2:3 with yerrorlines lw 2 title 'standard, node-major solver (2 cores)', \
     $quick_old using 1:2 with points pt 7 ps 1.5 lc rgb 'black' title 'quick, 6 min, old solver (exact)', \
     $std_new using 1:2:3 with yerrorbars pt 5 ps 1.2 title 'standard, new solver, 45M it. (time from quiet rate)', \
     $quick_new using 1:2:3 with yerrorlines lw 2 title 'quick, new solver (2 cores, 12 flops)', \
     $thin using 1:2:3 with yerrorbars pt 4 title 'same, threshold 0.15 / purified', \
     $dev using 1:2:3 with yerrorbars pt 9 title 'quick/standard rows at 120 s (16-core box, 2 thr. each)', \
     $std_split using 1:2:3 with yerrorlines lw 2 title 'standard 169-3000-3000-740, 2 shared cores (50 flops)'
