
BYJ¢€Zכ~ץ8X]כ˜ץׁ]לAץ»׳1aBלי״aAל
ׂwaDלBbYןulaNןuduןu:טזrצCטגוצ$טטNצ¸ד2אן§דOßןדדkבבמn3ו5mnהֽln ז׳mmבmpפ`Ûא]pdIאLp÷e$טkדWY&טדCֿטה״`¡n•ירÝnHי&ג™nיWה